import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The build's last step: copies the live page (monitoring/live: index.html, live.js, live.css) and
 * uPlot's browser bundle, stylesheet and licence (from the `uplot` devDependency) into
 * dist/monitoring/live, where `LiveView` serves them — the page needs no CDN and works offline.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const target = join(root, 'dist/monitoring/live');
const uplot = dirname(createRequire(join(root, 'package.json')).resolve('uplot/package.json'));
mkdirSync(target, { recursive: true });
for (const file of ['index.html', 'live.js', 'live.css']) copyFileSync(join(root, 'monitoring/live', file), join(target, file));
for (const file of ['dist/uPlot.iife.min.js', 'dist/uPlot.min.css', 'LICENSE']) copyFileSync(join(uplot, file), join(target, file === 'LICENSE' ? 'uPlot.LICENSE' : file.slice('dist/'.length)));
process.stdout.write(`copied the live page and uPlot into ${target}\n`);
