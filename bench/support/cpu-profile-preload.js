/* eslint-disable @typescript-eslint/no-require-imports */
/* global require, process */
/**
 * `node -r ./bench/support/cpu-profile-preload.js <service>` with CPU_PROFILE_DIR set: SIGUSR2 starts
 * V8's CPU profiler (the one behind `node --cpu-prof`, same .cpuprofile format), the next SIGUSR2
 * stops it and writes $CPU_PROFILE_DIR/window-<pid>-<n>.cpuprofile. Unlike --cpu-prof, the profile
 * holds only the measured window, not start-up. See bench/support/profile-window.ts (which names it PROFILE_WINDOW_PRELOAD).
 */
const fs = require('node:fs');
const path = require('node:path');
const inspector = require('node:inspector');

const dir = process.env.CPU_PROFILE_DIR;
const session = new inspector.Session();
session.connect();
let running = false;
let windows = 0;
const file = (suffix) => path.join(dir, `window-${process.pid}-${windows}${suffix}`);

process.on('SIGUSR2', () => {
  if (!running) {
    running = true;
    session.post('Profiler.enable', () =>
      session.post('Profiler.start', () => fs.writeFileSync(file('.started'), '')),
    );
    return;
  }
  session.post('Profiler.stop', (err, result) => {
    running = false;
    const out = file('.cpuprofile');
    fs.writeFileSync(`${out}.tmp`, err ? '{}' : JSON.stringify(result.profile));
    fs.renameSync(`${out}.tmp`, out);
    windows++;
  });
});
