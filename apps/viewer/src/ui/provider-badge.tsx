import { providerLabel } from '../model/provider';

/** The provider a node came from (`source.provider` of the event that created it). */
export function ProviderBadge({ provider }: { provider: string }) {
  return (
    <span class="provider" title={`provider: ${provider}`}>
      {providerLabel(provider)}
    </span>
  );
}
