/**
 * `pnpm profile:summary <file.cpuprofile> [top]`: self time per area and per function, and the
 * inclusive time of the project's own functions, of a `node --cpu-prof` profile, as markdown.
 */
import path from 'node:path';
import { profileMarkdown, summariseProfile } from './support/cpu-profile-summary';

const [file, top] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: pnpm profile:summary <file.cpuprofile> [top]\n');
  process.exit(1);
}
console.log(profileMarkdown(path.basename(file), summariseProfile(file, Number(top ?? 20))));
