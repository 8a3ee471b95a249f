/** Explicit bidirectional formatting characters (embeddings, overrides, isolates, marks). */
const BIDI_CONTROLS = /([\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069])/;

const codePoint = (c: string): string =>
  `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * A string from a share (a title, purpose, summary, task, message, agent type…): shown in its own
 * bidirectional context (`<bdi>`: unicode-bidi isolate, direction from the text itself), so it
 * cannot reorder what surrounds it, and with its bidirectional control characters shown as what
 * they are (`⟨U+202E⟩`) instead of obeyed: `report` + U+202E + `gnp.exe` reads as written, not
 * as `…exe.png`. Right-to-left scripts still read right to left.
 */
export function UserText({ text }: { text: string | null | undefined }) {
  if (!text) return null;
  const parts = text.split(BIDI_CONTROLS);
  return (
    <bdi class="user-text">
      {parts.length === 1
        ? text
        : parts.map((part, i) =>
            i % 2 === 0 ? (
              part
            ) : (
              <span key={i} class="bidi-control" title="bidirectional control character">
                ⟨{codePoint(part)}⟩
              </span>
            ),
          )}
    </bdi>
  );
}

/** The isolation inside plain strings (tooltips, the document title, canvas): controls dropped. */
export const isolated = (text: string): string =>
  `\u2068${text.replace(new RegExp(BIDI_CONTROLS.source, 'g'), '')}\u2069`;
