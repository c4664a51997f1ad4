// The live view of a vbstream pipeline: one Server-Sent Events stream (/events) of frames, drawn
// with uPlot. Read-only; every text taken from the data goes into the page through textContent.
'use strict';
(() => {
  const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
  /** A reliability bin with fewer records than this is drawn as a small grey point: its rate is noise. */
  const MIN_BIN_RECORDS = 30;
  const state = { frames: [], capacity: 600, window: 1000, everyMs: 500, selected: undefined };
  /** Charts by id (the end-to-end test reads them). */
  const charts = new Map();
  const panels = new Map();
  window.vbstreamLive = { charts, frames: () => state.frames.length };

  const colour = (i) => PALETTE[i % PALETTE.length];
  /** Feature j's colour, the same in every frame whatever its rank: the palette for the first ten, then hues a golden angle apart. */
  function featureColour(j, alpha = 1) {
    if (j < PALETTE.length) {
      const hex = PALETTE[j];
      return `rgba(${parseInt(hex.slice(1, 3), 16)}, ${parseInt(hex.slice(3, 5), 16)}, ${parseInt(hex.slice(5, 7), 16)}, ${alpha})`;
    }
    return `hsla(${Math.round((j * 137.508) % 360)}, 60%, 42%, ${alpha})`;
  }

  /** Tick labels in SI form (950, 12.5k, 4.5M, 1.2G), with the fewest decimals (at most 6) that write every tick's value exactly: 12,500 is 12.5k, never 13k. */
  function compactLabels(splits) {
    const top = Math.max(0, ...splits.map((v) => Math.abs(v ?? 0)));
    const [scale, suffix] = top >= 1e9 ? [1e9, 'G'] : top >= 1e6 ? [1e6, 'M'] : top >= 1e4 ? [1e3, 'k'] : [1, ''];
    const scaled = splits.map((v) => (v === null || v === undefined ? null : v / scale));
    const exact = (digits) => scaled.every((v) => v === null || Math.abs(Number(v.toFixed(digits)) - v) <= 1e-9 * Math.max(1, Math.abs(v)));
    let digits = 0;
    while (digits < 6 && !exact(digits)) digits++;
    return scaled.map((v) => (v === null ? null : v === 0 ? '0' : `${Number(v.toFixed(digits))}${suffix}`));
  }

  /** Width of a y axis: its widest tick label, measured in the axis font, plus the tick and the gap (uPlot's default is a fixed 50 px). */
  function axisSize(plot, values, axisIndex) {
    const axis = plot.axes[axisIndex];
    if (values === null || values === undefined) return 50;
    const widest = Math.max(0, ...values.map((v) => (v === null || v === undefined ? 0 : textWidth(plot, axisIndex, String(v)))));
    return Math.ceil(widest + (axis.ticks.show === false ? 0 : axis.ticks.size) + axis.gap + 4);
  }

  /** Width of `text` in css px in the font of axis `axisIndex`. */
  function textWidth(plot, axisIndex, text) {
    const context = plot.ctx;
    context.save();
    context.font = plot.axes[axisIndex].font[0];
    const width = context.measureText(text).width / (window.devicePixelRatio || 1);
    context.restore();
    return width;
  }

  const pad = (n) => String(n).padStart(2, '0');
  /**
   * Time-axis labels: the clock time on one line (the date is in the status line), so neighbours
   * never collide; a label that would stick out of the chart's left or right edge is left out.
   */
  function clockLabels(plot, splits, axisIndex) {
    const left = plot.bbox.left / (window.devicePixelRatio || 1);
    return splits.map((t) => {
      const date = new Date(t * 1000);
      const label = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
      const centre = left + plot.valToPos(t, 'x');
      const half = textWidth(plot, axisIndex, label) / 2;
      return centre - half < 0 || centre + half > plot.width ? null : label;
    });
  }

  /** The axes of a chart: a clock on a time x axis, SI labels on the others, every y axis as wide as its labels. */
  function axesOf(options) {
    const time = (options.scales?.x?.time ?? true) !== false;
    const axes = options.axes ?? [{}, {}];
    return axes.map((axis, i) => (i === 0
      ? { space: time ? 70 : 50, values: (plot, splits, axisIndex) => (time ? clockLabels(plot, splits, axisIndex) : compactLabels(splits)), ...axis }
      : { size: axisSize, values: (plot, splits) => compactLabels(splits), ...axis }));
  }
  const fmt = (v, digits = 3) => (v === undefined || v === null || Number.isNaN(v) ? '–' : Number(v).toFixed(digits));
  const count = (v) => (v === undefined || v === null ? '–' : Math.round(v).toLocaleString('en-US'));

  function element(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className !== undefined) node.className = className;
    return node;
  }

  /** The panel `id` in `section`, created on first use, with a title and a caption. */
  function panel(section, id, title, caption) {
    let entry = panels.get(id);
    if (entry === undefined) {
      const root = element('div', undefined, 'panel');
      const heading = element('h3', title);
      const note = element('p', caption ?? '', 'caption');
      const chart = element('div', undefined, 'chart');
      const extra = element('div');
      root.append(heading, note, chart, extra);
      const container = document.getElementById(section);
      container.hidden = false;
      // Panels of one kind (e.g. one per partition) stay in the order of their ids, whenever they appear.
      const [group] = id.split(' ');
      root.dataset.group = group;
      const grid = container.querySelector('.grid');
      const after = [...grid.children].find((sibling) => sibling.dataset.group === group && sibling.dataset.id > id);
      root.dataset.id = id;
      grid.insertBefore(root, after ?? null);
      entry = { root, heading, note, chart, extra };
      panels.set(id, entry);
    }
    if (caption !== undefined) entry.note.textContent = caption;
    return entry;
  }

  function table(headers, rows) {
    const node = element('table');
    const head = node.createTHead().insertRow();
    for (const h of headers) head.append(element('th', h));
    const body = node.createTBody();
    for (const row of rows) {
      const tr = body.insertRow();
      for (const cell of row) tr.insertCell().textContent = cell;
    }
    return node;
  }

  /**
   * Draws (or updates) chart `id`: `x` values, `series` [{label, values, ...uPlot series options}],
   * `options` extra uPlot options. The chart is rebuilt when its series change.
   */
  function draw(id, host, x, series, options = {}) {
    const signature = JSON.stringify(series.map((s) => s.label)) + JSON.stringify(options.bands ?? []);
    const data = [x, ...series.map((s) => s.values)];
    const existing = charts.get(id);
    if (existing !== undefined && existing.signature === signature) {
      existing.setData(data);
      return existing;
    }
    existing?.destroy();
    const width = Math.max(240, host.clientWidth || 420);
    const plot = new uPlot({
      width, height: options.height ?? 220,
      scales: options.scales ?? { x: { time: true } },
      axes: axesOf(options),
      bands: options.bands,
      legend: { show: options.legend ?? true, live: true },
      cursor: { drag: { x: false, y: false } },
      series: [{}, ...series.map(({ values, ...rest }, i) => ({ stroke: colour(i), width: 1.5, spanGaps: false, ...rest }))],
    }, data, host);
    plot.signature = signature;
    charts.set(id, plot);
    return plot;
  }

  const times = () => state.frames.map((f) => f.t / 1000);

  /**
   * The models whose per-model panels (`group`: reliability, coefficients) are drawn: the one model,
   * or with several (one per partition) the one picked in the header's selector, so that the page
   * stays about a screen tall whatever the partitions; the other models' panels are hidden.
   */
  function perModelKeys(models, group) {
    const select = document.getElementById('model-select');
    const picker = document.getElementById('model-picker');
    if (models.length <= 1) {
      picker.hidden = true;
      return models;
    }
    if (!models.includes(state.selected)) state.selected = models[0];
    if ([...select.options].map((option) => option.value).join('\n') !== models.join('\n')) {
      select.replaceChildren(...models.map((key) => {
        const option = element('option', key);
        option.value = key;
        return option;
      }));
    }
    select.value = state.selected;
    picker.hidden = false;
    for (const [id, entry] of panels) if (entry.root.dataset.group === group) entry.root.hidden = id !== `${group} ${state.selected}`;
    return [state.selected];
  }
  const keysOf = (pick) => {
    const keys = new Set();
    for (const frame of state.frames) for (const key of Object.keys(pick(frame) ?? {})) keys.add(key);
    return [...keys].sort();
  };

  function renderFlow(x) {
    const models = keysOf((f) => f.models);
    const throughput = models.map((key) => ({ label: key, values: state.frames.map((f) => f.models[key]?.throughput ?? null) }));
    if (models.length > 1) throughput.push({ label: 'total', values: state.frames.map((f) => Object.values(f.models).reduce((a, m) => a + m.throughput, 0)), width: 2.5, stroke: '#222' });
    draw('throughput', panel('flow', 'throughput', 'Throughput', 'records learned per second').chart, x, throughput);
    const lags = keysOf((f) => f.lag);
    if (lags.length > 0) {
      const series = lags.map((key) => ({ label: key, values: state.frames.map((f) => f.lag[key] ?? null) }));
      series.push({ label: 'total', values: state.frames.map((f) => Object.values(f.lag).reduce((a, b) => a + b, 0)), width: 2.5, stroke: '#222' });
      draw('lag', panel('flow', 'lag', 'Consumer lag', 'messages behind the end of each partition').chart, x, series);
    }
    const queue = state.frames.map((f) => f.queueDepth ?? null);
    if (queue.some((v) => v !== null)) draw('queue', panel('flow', 'queue', 'Queue', 'records accepted from the source, not yet learned').chart, x, [{ label: 'queued', values: queue }]);
  }

  function renderLearning(x) {
    const models = keysOf((f) => f.models);
    const window = `prequential (test-then-train), mean over the last ${count(state.window)} records`;
    const logLoss = models.map((key) => ({ label: key, values: state.frames.map((f) => f.models[key]?.logLoss ?? null) }));
    draw('log-loss', panel('learning', 'log-loss', 'Log-loss (nats per record)', window).chart, x, logLoss);
    const brier = models.map((key) => ({ label: key, values: state.frames.map((f) => f.models[key]?.brier ?? null) }));
    if (brier.some((s) => s.values.some((v) => v !== null))) draw('brier', panel('learning', 'brier', 'Brier score', window).chart, x, brier);
    const last = state.frames[state.frames.length - 1];
    for (const key of perModelKeys(models, 'reliability')) {
      const calibration = last?.models[key]?.calibration;
      if (calibration !== undefined) renderReliability(key, calibration);
    }
  }

  function renderReliability(key, calibration) {
    const id = `reliability ${key}`;
    const entry = panel('learning', id, `Reliability diagram · ${key}`,
      `observed rate of y = 1 per predicted-probability bin; bars: records per bin; bins under ${MIN_BIN_RECORDS} records are small grey points (too few to judge)`);
    const { upper, count: counts, positives } = calibration;
    const centres = upper.map((u, i) => (u + (i === 0 ? 0 : upper[i - 1])) / 2);
    const rate = counts.map((c, i) => (c > 0 ? positives[i] / c : null));
    draw(id, entry.chart, centres, [
      { label: 'perfect calibration', values: centres, stroke: '#aaa', dash: [4, 4], points: { show: false } },
      { label: `observed (≥ ${MIN_BIN_RECORDS} records)`, values: rate.map((r, i) => (counts[i] >= MIN_BIN_RECORDS ? r : null)), stroke: colour(0), points: { show: true, size: 9 } },
      { label: `observed (< ${MIN_BIN_RECORDS} records)`, values: rate.map((r, i) => (counts[i] < MIN_BIN_RECORDS ? r : null)), stroke: '#bbb', width: 0, points: { show: true, size: 5 } },
      { label: 'records', values: counts, scale: 'records', stroke: '#9ecae1', fill: 'rgba(158, 202, 225, 0.35)', paths: uPlot.paths.bars({ size: [0.9] }), points: { show: false } },
    ], {
      scales: { x: { time: false, range: [0, 1] }, y: { range: [0, 1] }, records: {} },
      axes: [{ label: 'predicted p(y = 1)' }, { label: 'observed rate' }, { scale: 'records', side: 1, label: 'records', grid: { show: false } }],
    });
    // the bins side by side (three rows, not one row per bin): thin bins in grey
    const node = table(['bin', ...upper.map((u, i) => `${fmt(i === 0 ? 0 : upper[i - 1], 1)}–${fmt(u, 1)}`)],
      [['records', ...counts.map(count)], ['observed rate', ...counts.map((c, i) => (c > 0 ? fmt(rate[i]) : '–'))]]);
    node.className = 'bins';
    for (const row of node.tBodies[0].rows) counts.forEach((c, i) => { if (c < MIN_BIN_RECORDS) row.cells[i + 1].className = 'thin'; });
    entry.extra.replaceChildren(node);
  }

  function renderPosterior(x) {
    const models = keysOf((f) => f.models);
    for (const key of perModelKeys(models, 'coefficients')) {
      const last = [...state.frames].reverse().find((f) => f.models[key]?.coefficients !== undefined);
      if (last === undefined) continue;
      const latest = last.models[key].coefficients;
      // one series per feature, in feature order (not rank order), coloured by the feature's index
      const features = latest.names.map((name, i) => ({ name, index: latest.index?.[i] ?? i, rank: i })).sort((a, b) => a.index - b.index);
      const series = [];
      const bands = [];
      for (const { name, index } of features) {
        const at = (f, pick) => {
          const c = f.models[key]?.coefficients;
          const j = c === undefined ? -1 : c.names.indexOf(name);
          return j < 0 ? null : pick(c, j);
        };
        const base = series.length + 1;
        series.push({ label: name, values: state.frames.map((f) => at(f, (c, j) => c.mean[j])), stroke: featureColour(index) });
        if (latest.sd !== undefined) {
          series.push({ label: `${name} +2σ`, values: state.frames.map((f) => at(f, (c, j) => (c.sd === undefined ? null : c.mean[j] + 2 * c.sd[j]))), stroke: featureColour(index, 0.33), width: 0.5 });
          series.push({ label: `${name} −2σ`, values: state.frames.map((f) => at(f, (c, j) => (c.sd === undefined ? null : c.mean[j] - 2 * c.sd[j]))), stroke: featureColour(index, 0.33), width: 0.5 });
          bands.push({ series: [base + 1, base + 2], fill: featureColour(index, 0.13) });
        }
      }
      const entry = panel('posterior', `coefficients ${key}`, `Posterior means · ${key}`,
        `the ${latest.names.length} largest coefficients by |mean|, with ±2σ credible bands (σ from 32 posterior draws); one colour per feature`);
      draw(`coefficients ${key}`, entry.chart, x, series, { bands, height: 260, legend: false });
      const { mean, sd } = latest;
      // the legend, largest |mean| first: the feature's colour, name, mean and ±2σ
      const legend = element('div', undefined, 'legend');
      for (const { name, index, rank } of [...features].sort((a, b) => a.rank - b.rank)) {
        const item = element('span', undefined, 'legend-item');
        const swatch = element('span', undefined, 'swatch');
        swatch.style.backgroundColor = featureColour(index);
        item.append(swatch, element('span', name, 'name'), element('span', ` ${fmt(mean[rank])}${sd === undefined ? '' : ` ± ${fmt(2 * sd[rank])}`}`, 'value'));
        legend.append(item);
      }
      entry.extra.replaceChildren(legend);
    }
    const effective = models.map((key) => ({ label: key, values: state.frames.map((f) => f.models[key]?.effectiveDataSize ?? null) }));
    if (effective.some((s) => s.values.some((v) => v !== null))) {
      draw('effective', panel('posterior', 'effective', 'Effective data size', 'records the posterior represents').chart, x, effective);
    }
  }

  function renderDurability(x) {
    const models = keysOf((f) => f.models);
    draw('snapshots', panel('durability', 'snapshots', 'Snapshots', 'durable posterior snapshots (cumulative)').chart, x,
      models.map((key) => ({ label: key, values: state.frames.map((f) => f.models[key]?.snapshots ?? null) })));
    const reasons = keysOf((f) => f.deadLetters);
    const entry = panel('durability', 'dead-letters', 'Dead letters by reason', reasons.length === 0 ? 'none so far' : 'records sent to the dead-letter sink (cumulative)');
    if (reasons.length > 0) {
      draw('dead-letters', entry.chart, x, reasons.map((reason) => ({ label: reason, values: state.frames.map((f) => f.deadLetters[reason] ?? 0) })));
      const last = state.frames[state.frames.length - 1];
      entry.extra.replaceChildren(table(['reason', 'records'], reasons.map((r) => [r, count(last.deadLetters[r])])));
    }
  }

  function renderPartitions(x) {
    const last = state.frames[state.frames.length - 1];
    const keys = keysOf((f) => f.models).filter((key) => last.models[key]?.partition !== '' && last.models[key] !== undefined);
    if (keys.length === 0) return;
    const lagOf = (frame, partition) => {
      let total = null;
      for (const [key, value] of Object.entries(frame.lag)) if (key.endsWith(` / p${partition}`)) total = (total ?? 0) + value;
      return total;
    };
    for (const key of keys) {
      const partition = last.models[key].partition;
      const entry = panel('partitions', `partition ${key}`, key, 'records/s and consumer lag');
      draw(`partition ${key}`, entry.chart, x, [
        { label: 'records/s', values: state.frames.map((f) => f.models[key]?.throughput ?? null) },
        { label: 'lag', values: state.frames.map((f) => lagOf(f, partition)), scale: 'lag' },
      ], { height: 130, axes: [{}, { label: 'records/s' }, { scale: 'lag', side: 1, label: 'lag', grid: { show: false } }] });
      const m = last.models[key];
      entry.extra.replaceChildren(table(['records', 'log-loss', 'Brier', 'lag', 'snapshots'],
        [[count(m.records), fmt(m.logLoss), fmt(m.brier), count(lagOf(last, partition)), count(m.snapshots)]]));
    }
  }

  function renderBandit(x) {
    const frames = state.frames.filter((f) => f.bandit !== undefined);
    if (frames.length === 0) return;
    const last = frames[frames.length - 1].bandit;
    const names = last.arms?.names ?? [];
    if (names.length > 0) {
      draw('arm-shares', panel('bandit', 'arm-shares', 'Arm choice shares', 'share of decisions choosing each arm (cumulative)').chart, x, names.map((name, i) => ({
        label: name,
        values: state.frames.map((f) => {
          const choices = f.bandit?.arms?.choices;
          const total = choices?.reduce((a, b) => a + b, 0) ?? 0;
          return choices === undefined || total === 0 ? null : choices[i] / total;
        }),
      })), { scales: { x: { time: true }, y: { range: [0, 1] } } });
    }
    if (last.cumulativeReward !== undefined) {
      draw('reward', panel('bandit', 'reward', 'Cumulative reward', 'sum of the rewards learned').chart, x, [{ label: 'reward', values: state.frames.map((f) => f.bandit?.cumulativeReward ?? null) }]);
    }
    if (last.decisions !== undefined) {
      draw('decisions', panel('bandit', 'decisions', 'Decisions', 'decisions joined (cumulative)').chart, x, [{ label: 'decisions', values: state.frames.map((f) => f.bandit?.decisions ?? null) }]);
    }
  }

  function renderServe(x) {
    const frames = state.frames.filter((f) => f.serve !== undefined);
    if (frames.length === 0) return;
    const last = frames[frames.length - 1].serve;
    const statuses = keysOf((f) => f.serve?.requestsPerSecond);
    const rates = statuses.map((status) => ({ label: status, values: state.frames.map((f) => f.serve?.requestsPerSecond[status] ?? null) }));
    if (statuses.length > 1) rates.push({ label: 'total', values: state.frames.map((f) => (f.serve === undefined ? null : Object.values(f.serve.requestsPerSecond).reduce((a, b) => a + b, 0))), width: 2.5, stroke: '#222' });
    const requests = panel('serve', 'serve-requests', 'Requests', 'POST /predict answered per second, by HTTP status');
    draw('serve-requests', requests.chart, x, rates);
    requests.extra.replaceChildren(table(['posterior served', 'rows predicted'], [[last.version ?? 'none yet', count(last.predictions)]]));
    draw('serve-latency', panel('serve', 'serve-latency', 'Latency (ms)', 'POST /predict between frames: median and 99th percentile, from the latency histogram\'s buckets').chart, x, [
      { label: 'p50', values: state.frames.map((f) => f.serve?.latencyMs?.p50 ?? null) },
      { label: 'p99', values: state.frames.map((f) => f.serve?.latencyMs?.p99 ?? null) },
    ]);
    const { upper, count: counts } = last.probability;
    if (counts.some((c) => c > 0)) {
      const centres = upper.map((u, i) => (u + (i === 0 ? 0 : upper[i - 1])) / 2);
      draw('serve-probability', panel('serve', 'serve-probability', 'Predicted probabilities', 'predicted p(y = 1) of the rows answered so far: rows per bin').chart, centres, [
        { label: 'rows', values: counts, stroke: '#9ecae1', fill: 'rgba(158, 202, 225, 0.6)', paths: uPlot.paths.bars({ size: [0.9] }), points: { show: false } },
      ], { scales: { x: { time: false, range: [0, 1] }, y: {} }, axes: [{ label: 'predicted p(y = 1)' }, { label: 'rows' }] });
    }
  }

  function render() {
    if (state.frames.length === 0) return;
    const x = times();
    renderServe(x);
    // A scoring service or a bandit service learns no pipeline model itself: the learner's sections stay hidden on its page.
    const learner = keysOf((f) => f.models).length > 0 || !state.frames.some((f) => f.serve !== undefined || f.bandit !== undefined);
    for (const id of ['flow', 'learning', 'posterior', 'durability']) document.getElementById(id).hidden = !learner;
    if (learner) {
      renderFlow(x);
      renderLearning(x);
      renderPosterior(x);
      renderDurability(x);
    }
    renderPartitions(x);
    renderBandit(x);
    const alerts = document.getElementById('alerts');
    const notReady = state.frames[state.frames.length - 1].notReady ?? [];
    alerts.hidden = notReady.length === 0;
    alerts.textContent = notReady.length === 0 ? '' : `Not ready:\n${notReady.join('\n')}`;
    const status = document.getElementById('status');
    status.className = '';
    status.textContent = `live · ${state.frames.length} frames (${fmt((state.frames.length * state.everyMs) / 1000, 0)} s kept, at most ${state.capacity}) · last ${new Date(state.frames[state.frames.length - 1].t).toLocaleString()}`;
  }

  let pending = false;
  function schedule() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      render();
    });
  }

  const events = new EventSource('events');
  events.addEventListener('history', (event) => {
    const history = JSON.parse(event.data);
    Object.assign(state, { frames: history.frames, capacity: history.capacity, window: history.window, everyMs: history.everyMs });
    document.getElementById('title').textContent = `vbstream · ${history.title}`;
    document.title = `vbstream · ${history.title} · live view`;
    schedule();
  });
  events.addEventListener('frame', (event) => {
    state.frames.push(JSON.parse(event.data));
    if (state.frames.length > state.capacity) state.frames.splice(0, state.frames.length - state.capacity);
    schedule();
  });
  events.addEventListener('error', () => {
    const status = document.getElementById('status');
    status.className = 'down';
    status.textContent = 'disconnected: retrying…';
  });
  document.getElementById('model-select').addEventListener('change', (event) => {
    state.selected = event.target.value;
    schedule();
  });
  window.addEventListener('resize', () => {
    for (const plot of charts.values()) plot.setSize({ width: Math.max(240, plot.root.parentElement.clientWidth || 420), height: plot.height });
  });
})();
