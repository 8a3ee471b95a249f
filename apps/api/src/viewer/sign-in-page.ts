import { markup } from '../html/html';
import { viewerDocument } from './viewer-shell';

export interface SignInPageOptions {
  next: string;
  error: string | null;
}

/** The sign-in form: a key of the account, posted once; the key never goes in a URL. */
export function signInPage(assets: string, o: SignInPageOptions): string {
  return viewerDocument(
    'Sign in',
    assets,
    markup`<main class="sign-in">
<h1>Graph History</h1>
<p>Sign in with an API key of the account that owns the share. The key is checked once and kept
out of the page; this browser gets a session instead.</p>
<form method="post" action="/sign-in">
<input type="hidden" name="next" value="${o.next}">
<label for="key">API key</label>
<input id="key" name="key" type="password" autocomplete="current-password" required spellcheck="false" placeholder="sk_live_…" autofocus${o.error ? markup` aria-describedby="sign-in-error" aria-invalid="true"` : ''}>
${o.error ? markup`<p id="sign-in-error" class="error" role="alert">${o.error}</p>` : ''}
<button type="submit">Sign in</button>
</form>
<p class="muted">Create a key with <code>graph-history keys create --account NAME</code>.</p>
</main>`,
  );
}
