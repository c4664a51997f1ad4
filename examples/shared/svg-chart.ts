/**
 * One curve of a chart: a polyline (`line`, the default, or `dashed`), markers (`points`, or open
 * circles: `hollow`) or both (`line-points`); `labels[k]`, when given, is written beside point k.
 */
export interface ChartSeries {
  readonly name: string;
  readonly x: ArrayLike<number>;
  readonly y: ArrayLike<number>;
  readonly style?: 'line' | 'points' | 'hollow' | 'dashed' | 'line-points';
  readonly color?: string;
  readonly labels?: readonly string[];
}

/** Vertical dashed lines at `x` (events such as a drift), one legend entry. */
export interface ChartMarker {
  readonly name: string;
  readonly x: readonly number[];
  readonly color?: string;
}

/** A shaded region between `lower` and `upper` (a credible band). */
export interface ChartBand {
  readonly name: string;
  readonly x: ArrayLike<number>;
  readonly lower: ArrayLike<number>;
  readonly upper: ArrayLike<number>;
  readonly color?: string;
}

/** What {@link renderSvgChart} draws; axis ranges default to the data's, padded to nice ticks. */
export interface ChartSpec {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly ChartSeries[];
  readonly bands?: readonly ChartBand[];
  readonly markers?: readonly ChartMarker[];
  /** A line of small text under the title (e.g. how to read the markers). */
  readonly note?: string;
  readonly xRange?: readonly [number, number];
  readonly yRange?: readonly [number, number];
  readonly width?: number;
  readonly height?: number;
  /** Corner of the plot the legend sits in (default top-left). */
  readonly legend?: 'top-left' | 'top-right' | 'bottom-right';
}

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f'];
const MARGIN = { left: 72, right: 24, top: 44, bottom: 56 };

const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** About five round tick values (1, 2, 5 × 10^k steps) covering [lo, hi]. */
function niceTicks(lo: number, hi: number): number[] {
  if (!(hi > lo)) [lo, hi] = [lo - 1, hi + 1];
  const raw = (hi - lo) / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  const ticks: number[] = [];
  for (let t = Math.floor(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(Math.abs(t) < step * 1e-9 ? 0 : t);
  if (ticks[ticks.length - 1] < hi) ticks.push(ticks[ticks.length - 1] + step);
  return ticks;
}

const formatTick = (v: number): string => (Math.abs(v) >= 1e4 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(1) : String(Number(v.toPrecision(6))));

function extent(values: ArrayLike<number>[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const array of values) {
    for (let i = 0; i < array.length; i++) {
      if (Number.isFinite(array[i])) {
        lo = Math.min(lo, array[i]);
        hi = Math.max(hi, array[i]);
      }
    }
  }
  return Number.isFinite(lo) ? [lo, hi] : [0, 1];
}

/**
 * A dependency-free SVG line chart: title (and note), labelled axes with round ticks and grid
 * lines, one polyline (or marker set, optionally labelled point by point) per series, optional
 * shaded bands and vertical event markers, and a legend. Each series, band and marker is a
 * `<g data-series="name">`, so tests (and people) can find it. Non-finite points are skipped.
 */
export function renderSvgChart(spec: ChartSpec): string {
  const width = spec.width ?? 720;
  const height = spec.height ?? 440;
  const bands = spec.bands ?? [];
  const plotW = width - MARGIN.left - MARGIN.right;
  const plotH = height - MARGIN.top - MARGIN.bottom;
  const xTicks = niceTicks(...(spec.xRange ?? extent([...spec.series.map((s) => s.x), ...bands.map((b) => b.x)])));
  const yTicks = niceTicks(...(spec.yRange ?? extent([...spec.series.map((s) => s.y), ...bands.flatMap((b) => [b.lower, b.upper])])));
  const [x0, x1] = spec.xRange ?? [xTicks[0], xTicks[xTicks.length - 1]];
  const [y0, y1] = spec.yRange ?? [yTicks[0], yTicks[yTicks.length - 1]];
  const px = (x: number): number => MARGIN.left + ((x - x0) / (x1 - x0)) * plotW;
  const py = (y: number): number => MARGIN.top + plotH - ((y - y0) / (y1 - y0)) * plotH;
  const fmt = (v: number): string => v.toFixed(1);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${width / 2}" y="24" text-anchor="middle" font-size="16" font-weight="bold">${escapeXml(spec.title)}</text>`,
  ];
  if (spec.note !== undefined) out.push(`<text x="${width / 2}" y="39" text-anchor="middle" font-size="11" fill="#555">${escapeXml(spec.note)}</text>`);
  out.push('<g class="grid" stroke="#e0e0e0">');
  for (const t of xTicks.filter((t) => t >= x0 && t <= x1)) out.push(`<line x1="${fmt(px(t))}" y1="${MARGIN.top}" x2="${fmt(px(t))}" y2="${MARGIN.top + plotH}"/>`);
  for (const t of yTicks.filter((t) => t >= y0 && t <= y1)) out.push(`<line x1="${MARGIN.left}" y1="${fmt(py(t))}" x2="${MARGIN.left + plotW}" y2="${fmt(py(t))}"/>`);
  out.push('</g>');
  out.push(`<defs><clipPath id="plot"><rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}"/></clipPath></defs>`);
  bands.forEach((band, i) => {
    const upper: string[] = [];
    const lower: string[] = [];
    for (let k = 0; k < band.x.length; k++) {
      if (![band.x[k], band.lower[k], band.upper[k]].every(Number.isFinite)) continue;
      upper.push(`${fmt(px(band.x[k]))},${fmt(py(band.upper[k]))}`);
      lower.unshift(`${fmt(px(band.x[k]))},${fmt(py(band.lower[k]))}`);
    }
    const color = band.color ?? PALETTE[(spec.series.length + i) % PALETTE.length];
    out.push(`<g data-series="${escapeXml(band.name)}" clip-path="url(#plot)"><polygon points="${[...upper, ...lower].join(' ')}" fill="${color}" fill-opacity="0.2" stroke="none"/></g>`);
  });
  const markers = spec.markers ?? [];
  markers.forEach((marker, i) => {
    const color = marker.color ?? PALETTE[(spec.series.length + bands.length + i) % PALETTE.length];
    const lines = marker.x.filter((x) => x >= x0 && x <= x1).map((x) => `<line x1="${fmt(px(x))}" y1="${MARGIN.top}" x2="${fmt(px(x))}" y2="${MARGIN.top + plotH}" stroke="${color}" stroke-width="1.5" stroke-dasharray="3 3"/>`);
    out.push(`<g data-series="${escapeXml(marker.name)}">${lines.join('')}</g>`);
  });
  spec.series.forEach((series, i) => {
    const color = series.color ?? PALETTE[i % PALETTE.length];
    const points: { x: string; y: string; label?: string }[] = [];
    for (let k = 0; k < series.x.length; k++) {
      if (Number.isFinite(series.x[k]) && Number.isFinite(series.y[k])) points.push({ x: fmt(px(series.x[k])), y: fmt(py(series.y[k])), label: series.labels?.[k] });
    }
    const style = series.style ?? 'line';
    const dots = style === 'points' || style === 'line-points' ? points.map((p) => `<circle cx="${p.x}" cy="${p.y}" r="3.5" fill="${color}"/>`).join('')
      : style === 'hollow' ? points.map((p) => `<circle cx="${p.x}" cy="${p.y}" r="4" fill="white" stroke="${color}" stroke-width="1.5"/>`).join('') : '';
    const line = style === 'points' || style === 'hollow' ? '' : `<polyline points="${points.map((p) => `${p.x},${p.y}`).join(' ')}" fill="none" stroke="${color}" stroke-width="2"${style === 'dashed' ? ' stroke-dasharray="6 4"' : ''}/>`;
    // A label near the right edge goes to the left of its point, inside the plot.
    const labels = points.filter((p) => p.label !== undefined).map((p) => {
      const left = Number(p.x) > MARGIN.left + plotW - 50;
      return `<text x="${fmt(Number(p.x) + (left ? -7 : 7))}" y="${fmt(Number(p.y) + 4)}"${left ? ' text-anchor="end"' : ''} font-size="10" fill="${color}">${escapeXml(p.label!)}</text>`;
    }).join('');
    out.push(`<g data-series="${escapeXml(series.name)}" clip-path="url(#plot)">${line}${dots}${labels}</g>`);
  });
  out.push(`<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#333"/>`);
  out.push('<g class="ticks" fill="#333">');
  for (const t of xTicks.filter((t) => t >= x0 && t <= x1)) out.push(`<text x="${fmt(px(t))}" y="${MARGIN.top + plotH + 16}" text-anchor="middle">${formatTick(t)}</text>`);
  for (const t of yTicks.filter((t) => t >= y0 && t <= y1)) out.push(`<text x="${MARGIN.left - 6}" y="${fmt(py(t) + 4)}" text-anchor="end">${formatTick(t)}</text>`);
  out.push('</g>');
  out.push(`<text x="${MARGIN.left + plotW / 2}" y="${height - 14}" text-anchor="middle" font-size="13">${escapeXml(spec.xLabel)}</text>`);
  out.push(`<text transform="translate(18 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle" font-size="13">${escapeXml(spec.yLabel)}</text>`);
  const entries = [
    ...spec.series.map((s, i) => ({ name: s.name, color: s.color ?? PALETTE[i % PALETTE.length], style: s.style ?? 'line' })),
    ...bands.map((b, i) => ({ name: b.name, color: b.color ?? PALETTE[(spec.series.length + i) % PALETTE.length], style: 'band' })),
    ...markers.map((m, i) => ({ name: m.name, color: m.color ?? PALETTE[(spec.series.length + bands.length + i) % PALETTE.length], style: 'marker' })),
  ];
  const legendW = 24 + 7 * Math.max(...entries.map((e) => e.name.length), 4);
  const legendH = entries.length * 18 + 8;
  const left = spec.legend === 'top-right' || spec.legend === 'bottom-right' ? MARGIN.left + plotW - legendW - 10 : MARGIN.left + 10;
  const top = spec.legend === 'bottom-right' ? MARGIN.top + plotH - legendH - 10 : MARGIN.top + 10;
  out.push(`<g class="legend"><rect x="${left}" y="${top}" width="${legendW}" height="${legendH}" fill="white" fill-opacity="0.85" stroke="#999"/>`);
  entries.forEach((entry, i) => {
    const y = top + 14 + i * 18;
    const line = `<line x1="${left + 6}" y1="${y - 1}" x2="${left + 20}" y2="${y - 1}" stroke="${entry.color}" stroke-width="3"${entry.style === 'dashed' ? ' stroke-dasharray="4 2"' : ''}/>`;
    const dot = `<circle cx="${left + 13}" cy="${y - 1}" r="3.5" fill="${entry.color}"/>`;
    const mark = entry.style === 'band' ? `<rect x="${left + 6}" y="${y - 6}" width="14" height="10" fill="${entry.color}" fill-opacity="0.3"/>`
      : entry.style === 'marker' ? `<line x1="${left + 13}" y1="${y - 8}" x2="${left + 13}" y2="${y + 5}" stroke="${entry.color}" stroke-width="1.5" stroke-dasharray="3 3"/>`
        : entry.style === 'hollow' ? `<circle cx="${left + 13}" cy="${y - 1}" r="4" fill="white" stroke="${entry.color}" stroke-width="1.5"/>`
          : entry.style === 'points' ? dot : entry.style === 'line-points' ? line + dot : line;
    out.push(`${mark}<text x="${left + 26}" y="${y + 3}">${escapeXml(entry.name)}</text>`);
  });
  out.push('</g></svg>');
  return out.join('\n');
}
