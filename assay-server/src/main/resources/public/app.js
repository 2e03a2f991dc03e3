// Assay's page. Everything that came from a model or a case file is put into the page with textContent, never
// innerHTML, so model output is always shown as text.
'use strict';

const state = { token: '', suites: [], runId: null, source: null, charts: {}, historyOffset: 0, historyTotal: 0,
  detailRunId: null, detailRun: null, dialogMetrics: [], itemsOffset: 0, itemsTotal: 0 };
const PAGE = 50;
const $ = (selector) => document.querySelector(selector);

// McNemar's exact test and the paired score change: whether B really differs from A on the same cases.
function pairedText(paired) {
  if (!paired || !paired.n) {
    return '';
  }
  const signed = (value) => (value >= 0 ? '+' : '') + (value * 100).toFixed(1);
  return '. Paired over ' + paired.n + ' scored cases: ' + paired.only_b + ' passed only in B, ' + paired.only_a
    + ' only in A (McNemar p = ' + paired.mcnemar_p.toPrecision(2) + '); mean score change '
    + signed(paired.mean_delta) + ' points, 95% CI ' + signed(paired.delta_low) + ' to '
    + signed(paired.delta_high) + '.';
}

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

function showMessage(text) { $('#message').textContent = text || ''; }

async function api(path, options = {}) {
  const headers = Object.assign({ 'Accept': 'application/json' }, options.headers || {});
  if (state.token) headers['Authorization'] = 'Bearer ' + state.token;
  if (options.body && typeof options.body !== 'string') {
    headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(options.body);
  }
  const response = await fetch(path, Object.assign({}, options, { headers }));
  const body = response.headers.get('Content-Type')?.includes('json') ? await response.json() : await response.text();
  if (!response.ok) {
    const problem = typeof body === 'object' ? body : { detail: body };
    const error = new Error((problem.detail || response.statusText) + (problem.field ? ' [' + problem.field + ']' : ''));
    error.problem = problem;
    throw error;
  }
  return body;
}

function withToken(path) {
  return state.token ? path + (path.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(state.token) : path;
}

const percent = (score) => score === null || score === undefined ? '–' : (score * 100).toFixed(1);
// What a run cost (docs/cost.md): the total, then each dimension's; nothing for a run stored without costs.
const costText = (cost) => !cost || cost.cost_usd === undefined ? '' : ' · cost ' + cost.cost_usd.toFixed(6) + ' USD'
  + Object.entries(cost.by_dimension || {}).map(([dimension, spent]) => ', ' + dimension + ' '
    + spent.cost_usd.toFixed(6)).join('');
const shortId = (id) => id ? id.slice(0, 8) : '';
const when = (instant) => instant ? new Date(instant).toLocaleString() : '';

// ---- views ---------------------------------------------------------------------------------------------------
function show(view) {
  document.querySelectorAll('.view').forEach((node) => node.classList.toggle('active', node.id === 'view-' + view));
  document.querySelectorAll('.tab').forEach((node) => node.classList.toggle('active', node.dataset.view === view));
  if (view === 'history') loadHistory();
}

// The address names what is shown (#/history, #/runs/ID, #/compare/A/B): a run can be linked to, and the back button
// walks back through the views and runs opened. Going somewhere sets the address; the address change shows it.
const VIEWS = ['run', 'history', 'detail', 'compare'];

function go(...parts) {
  const hash = '#/' + parts.map(encodeURIComponent).join('/');
  if (location.hash === hash) route();
  else location.hash = hash;
}

function route() {
  const [view, ...ids] = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  if (view === 'runs' && ids[0]) openDetail(ids[0]);
  else if (view === 'compare' && ids.length === 2) compare(ids[0], ids[1]);
  else show(VIEWS.includes(view) ? view : 'run');
}

// ---- charts --------------------------------------------------------------------------------------------------
// Whiskers for each bar's 95 % interval (report field intervals), drawn over the bars.
const intervalWhiskers = {
  id: 'intervalWhiskers',
  afterDatasetsDraw(chart, args, options) {
    const intervals = options && options.intervals;
    if (!intervals || !intervals.length) return;
    const y = chart.scales.y;
    const context = chart.ctx;
    context.save();
    context.strokeStyle = '#1d2430';
    context.lineWidth = 1.5;
    chart.getDatasetMeta(0).data.forEach((bar, index) => {
      const interval = intervals[index];
      if (!interval) return;
      const top = y.getPixelForValue(Math.min(100, interval[1] * 100));
      const bottom = y.getPixelForValue(Math.max(0, interval[0] * 100));
      context.beginPath();
      context.moveTo(bar.x, top); context.lineTo(bar.x, bottom);
      context.moveTo(bar.x - 5, top); context.lineTo(bar.x + 5, top);
      context.moveTo(bar.x - 5, bottom); context.lineTo(bar.x + 5, bottom);
      context.stroke();
    });
    context.restore();
  },
};

// A bar per dimension (with its interval when known); a radar only from three dimensions on, where it has a shape.
function drawScores(prefix, dimensionScores, stats) {
  if (typeof Chart === 'undefined') return;
  const labels = Object.keys(dimensionScores || {});
  const values = labels.map((name) => dimensionScores[name] * 100);
  const intervals = labels.map((name) => stats && stats[name] && stats[name].n > 1 ? [stats[name].low, stats[name].high] : null);
  const radarWanted = labels.length >= 3;
  const radarCanvas = document.getElementById(prefix + '-radar');
  radarCanvas.closest('.chart').hidden = !radarWanted;
  radarCanvas.closest('.charts').classList.toggle('single', !radarWanted);
  if (!radarWanted && state.charts[prefix + '-radar']) {
    state.charts[prefix + '-radar'].destroy();
    delete state.charts[prefix + '-radar'];
  }
  for (const kind of radarWanted ? ['bar', 'radar'] : ['bar']) {
    const id = prefix + '-' + kind;
    const existing = state.charts[id];
    if (existing) {
      existing.data.labels = labels;
      existing.data.datasets[0].data = values;
      if (kind === 'bar') existing.options.plugins.intervalWhiskers.intervals = intervals;
      existing.update('none');
      continue;
    }
    const scales = kind === 'bar' ? { y: { min: 0, max: 100 } } : { r: { min: 0, max: 100, ticks: { stepSize: 25 } } };
    state.charts[id] = new Chart(document.getElementById(id), {
      type: kind,
      data: { labels, datasets: [{ label: 'score', data: values, backgroundColor: 'rgba(47,111,235,0.35)',
        borderColor: '#2f6feb', borderWidth: 1, maxBarThickness: 90 }] },
      options: { responsive: true, maintainAspectRatio: false, animation: false, scales,
        plugins: { legend: { display: false }, intervalWhiskers: { intervals } } },
      plugins: kind === 'bar' ? [intervalWhiskers] : [],
    });
  }
}

// The intervals the run asks for (report field intervals: clustered by a case field, samples reduced), else the plain
// dimension_stats of a server that predates them.
function intervalsOf(detail) {
  return (detail.intervals && detail.intervals.dimensions) || detail.dimension_stats || {};
}

// What the intervals are over, in words: "clustered by scenario, samples reduced by max".
function intervalsOver(intervals) {
  if (!intervals) return '';
  const parts = [];
  if (intervals.cluster_by) parts.push('clustered by ' + intervals.cluster_by);
  if (intervals.reducer) parts.push('each case once, samples reduced by ' + intervals.reducer);
  return '95 % intervals ' + (parts.length ? parts.join(', ') : 'over items taken as independent');
}

// Shown at most: the cases whose samples disagree most.
const SHOWN_CASE_SAMPLES = 10;

// Each dimension's score with its 95 % interval, pass@k when the run drew several answers per case, and the cases
// whose answers disagreed.
function renderStats(detail) {
  const stats = intervalsOf(detail);
  const rows = Object.entries(stats).map(([name, spread]) => {
    const row = el('tr');
    row.append(el('td', name), el('td', percent(spread.mean), 'num'),
      el('td', spread.n > 1 ? percent(spread.low) + ' – ' + percent(spread.high) : '–', 'num'),
      el('td', spread.n > 1 ? (spread.stderr * 100).toFixed(1) : '–', 'num'), el('td', spread.n, 'num'));
    return row;
  });
  $('#detail-stats tbody').replaceChildren(...rows);
  $('#detail-intervals-over').textContent = intervalsOver(detail.intervals);
  $('#detail-stats').hidden = !rows.length;
  const passAtK = Object.entries(detail.pass_at_k || {});
  const passHatK = Object.entries(detail.pass_hat_k || {});
  // pass^k beside pass@k: the chance that k answers of a case all pass (τ-bench), against at least one of k.
  $('#detail-pass-at-k').textContent = passAtK.length ? detail.samples + ' answers per case: '
    + passAtK.map(([k, rate]) => 'pass@' + k + ' ' + percent(rate)).join(' · ')
    + (passHatK.length ? ' — ' + passHatK.map(([k, rate]) => 'pass^' + k + ' ' + percent(rate)).join(' · ') : '') : '';
  const disagreeing = Object.entries(detail.case_samples || {})
    .filter(([, spread]) => spread.max > spread.min)
    .sort(([, x], [, y]) => y.stddev - x.stddev);
  const caseRows = disagreeing.slice(0, SHOWN_CASE_SAMPLES).map(([caseId, spread]) => {
    const row = el('tr');
    row.append(el('td', caseId), el('td', spread.passed + '/' + spread.samples, 'num'), el('td', percent(spread.mean), 'num'),
      el('td', spread.min.toFixed(2) + ' – ' + spread.max.toFixed(2), 'num'), el('td', spread.stddev.toFixed(2), 'num'));
    return row;
  });
  $('#detail-case-samples tbody').replaceChildren(...caseRows);
  $('#detail-case-samples caption').textContent = disagreeing.length + ' cases whose answers disagree'
    + (disagreeing.length > SHOWN_CASE_SAMPLES ? ' (the ' + SHOWN_CASE_SAMPLES + ' most spread; report.json has every case)' : '');
  $('#detail-case-samples').hidden = !caseRows.length;
}

// A run of several models: a row per model, its overall score, then a column per dimension; a head-to-head's outcome.
function renderMatrix(detail) {
  const matrix = detail.matrix;
  $('#detail-matrix').hidden = !matrix;
  $('#detail-matrix thead tr').replaceChildren(...(matrix
    ? [el('th', 'Model'), el('th', 'Overall'), ...matrix.dimensions.map((dimension) => el('th', dimension))] : []));
  $('#detail-matrix tbody').replaceChildren(...(matrix ? matrix.models.map((model) => {
    const row = el('tr');
    row.append(el('td', model.label), el('td', percent(model.total_score), 'num'),
      ...matrix.dimensions.map((dimension) => el('td', percent(model.dimension_scores[dimension]), 'num')));
    return row;
  }) : []));
  const outcome = detail.head_to_head;
  $('#detail-head-to-head').hidden = !outcome;
  $('#detail-head-to-head').textContent = outcome ? 'Head to head: ' + outcome.reason + '; ' + outcome.cases_used
    + ' of ' + outcome.cases_planned + ' cases used, ' + outcome.cases_saved + ' saved.' : '';
}

// ---- run form ------------------------------------------------------------------------------------------------
function checkbox(container, name, value, checked) {
  const label = el('label');
  const input = el('input');
  input.type = 'checkbox';
  input.name = name;
  input.value = value;
  input.checked = checked;
  label.append(input, document.createTextNode(value));
  container.append(label);
}

function fillSuite() {
  const suite = state.suites.find((entry) => entry.name === $('#case-set').value);
  const language = $('#language');
  language.replaceChildren(el('option', 'all'));
  language.firstChild.value = '';
  const dimensions = $('#dimensions');
  dimensions.replaceChildren();
  if (!suite) return;
  suite.languages.forEach((tag) => language.append(el('option', tag)));
  Object.entries(suite.dimensions).forEach(([name, count]) => checkbox(dimensions, 'dimensions', name, true));
}

async function loadForm() {
  const [suites, info, datasets] = await Promise.all([api('/api/suites'), api('/api/info'), api('/api/datasets')]);
  const datasetSelect = $('#dataset');
  datasetSelect.replaceChildren();
  datasets.datasets.forEach((dataset) => {
    const option = el('option', dataset.name + ' (' + dataset.lines + ' dialogs)');
    option.value = dataset.name;
    datasetSelect.append(option);
  });
  state.suites = suites.suites;
  const select = $('#case-set');
  select.replaceChildren();
  state.suites.forEach((suite) => {
    const problems = suite.problem_count ? ', ' + suite.problem_count + ' problems' : '';
    const option = el('option', suite.name + ' (' + suite.case_count + ' cases' + problems + ')');
    option.value = suite.name;
    option.disabled = !suite.runnable;
    select.append(option);
  });
  fillSuite();
  const tools = $('#tools');
  tools.replaceChildren();
  info.tools.forEach((tool) => checkbox(tools, 'tool_names', tool, true));
}

// A dialog run replays a dataset; the case set, language, dimensions, tools and tool mode are a capability run's.
function showKind() {
  const kind = $('#run-kind').value;
  document.querySelectorAll('#run-form .for-capability').forEach((node) => { node.hidden = kind !== 'capability'; });
  document.querySelectorAll('#run-form .for-dialog').forEach((node) => { node.hidden = kind !== 'dialog'; });
}

function dialogBody(form) {
  const body = { kind: 'dialog' };
  for (const field of ['dataset', 'model_name', 'base_url', 'api_key_env', 'user_id', 'metrics_profile']) {
    const value = (form.get(field) || '').trim();
    if (value) body[field] = value;
  }
  body.concurrency = Number(form.get('concurrency'));
  body.timeout_s = Number(form.get('timeout_s'));
  return body;
}

function formBody() {
  const form = new FormData($('#run-form'));
  if (form.get('kind') === 'dialog') return dialogBody(form);
  const body = {};
  for (const field of ['model_name', 'base_url', 'api_key_env', 'user_id', 'case_set', 'language', 'tool_mode']) {
    const value = (form.get(field) || '').trim();
    if (value) body[field] = value;
  }
  body.concurrency = Number(form.get('concurrency'));
  body.timeout_s = Number(form.get('timeout_s'));
  body.dimensions = form.getAll('dimensions');
  const tools = form.getAll('tool_names');
  if (tools.length !== document.querySelectorAll('#tools input').length) body.tool_names = tools;
  return body;
}

async function startRun(event) {
  event.preventDefault();
  showMessage('');
  try {
    const started = await api('/api/runs', { method: 'POST', body: formBody() });
    $('#live-log').replaceChildren();
    follow(started.run_id, true);
  } catch (error) {
    showMessage('Could not start: ' + error.message);
  }
}

async function stopRun() {
  if (!state.runId) return;
  try {
    await api('/api/runs/' + state.runId + '/cancel', { method: 'POST' });
  } catch (error) {
    showMessage('Could not stop: ' + error.message);
  }
}

// ---- live progress -------------------------------------------------------------------------------------------
/**
 * Why a run ended without a result, as a problem type: its items' most frequent error type when every judged item was
 * an error (run.all_items_errored), else the run's own error type; '' for none. As `assay runs list` shows it.
 */
function errorType(run) {
  if (!run.error) return '';
  return (run.error.details && run.error.details.error_type) || run.error.type;
}

/** Whether every judged item of the run is an error: it has no score to show, as `assay runs list` shows none. */
function judgedNothing(run) {
  const c = run.counts;
  return c.error > 0 && c.passed + c.failed + c.partial === 0;
}

function setStatus(node, status) {
  node.textContent = status;
  node.className = 'badge ' + status;
}

function renderProgress(progress) {
  const total = progress.total || 0;
  const done = progress.completed || 0;
  const bar = $('#progress-bar');
  bar.style.width = (total ? (100 * done / total) : 0) + '%';
  $('#progress').setAttribute('aria-valuenow', done);
  $('#progress').setAttribute('aria-valuemax', total);
  $('#progress-text').textContent = done + ' / ' + total;
  $('#progress-counts').textContent = 'passed ' + progress.passed + ', failed ' + progress.failed + ', partial '
    + progress.partial + ', skipped ' + progress.skipped + ', errors ' + progress.errors;
  if (progress.current_case_id) {
    // A dialog's turns report their number; the prompt is the one the item started with.
    if (progress.current_prompt !== undefined) state.currentPrompt = progress.current_prompt;
    const turn = progress.current_turn ? ' · turn ' + progress.current_turn + ' / ' + progress.current_turns : '';
    $('#current-case').textContent = progress.current_case_id + turn + ' – ' + (state.currentPrompt || '');
  }
  $('#total-score').textContent = percent(progress.total_score);
  setStatus($('#run-status'), progress.status);
  drawScores('score', progress.dimension_scores);
}

function logItem(item) {
  const calls = (item.tool_calls || []).map((call) => call.name).join(', ') || 'no tool calls';
  const checks = (item.checker_detail && item.checker_detail.checks || [])
    .map((check) => check.checker + ':' + check.status).join(' ');
  const line = el('li');
  line.append(el('span', item.status, 'badge ' + item.status), document.createTextNode(' ' + item.case_id
    + ' · ' + calls + ' · answer: ' + (item.final_answer || '').slice(0, 200) + (checks ? ' · ' + checks : '')));
  $('#live-log').prepend(line);
}

// A run this page just started is followed from its first event, so a quick run's items and turns all show.
function follow(runId, fromStart) {
  if (state.source) state.source.close();
  state.runId = runId;
  $('#run-id').textContent = runId;
  $('#start').disabled = true;
  $('#stop').disabled = false;
  const source = new EventSource(withToken('/api/runs/' + runId + '/events' + (fromStart ? '?last_event_id=0' : '')));
  state.source = source;
  source.addEventListener('eval_progress', (event) => renderProgress(JSON.parse(event.data)));
  source.addEventListener('eval_item', (event) => logItem(JSON.parse(event.data)));
  source.addEventListener('eval_log', (event) => $('#live-log').prepend(el('li', JSON.parse(event.data).message)));
  source.addEventListener('eval_finished', (event) => {
    source.close();
    const run = JSON.parse(event.data);
    renderProgress(flatCounts(run));
    $('#current-case').textContent = '–';
    $('#start').disabled = false;
    $('#stop').disabled = true;
    loadHistory();
  });
}

function flatCounts(run) {
  const c = run.counts;
  return { status: run.status, completed: c.passed + c.failed + c.partial + c.skipped + c.error + c.cancelled,
    total: c.total, passed: c.passed, failed: c.failed, partial: c.partial, skipped: c.skipped, errors: c.error,
    dimension_scores: run.dimension_scores, total_score: run.total_score };
}

// ---- history -------------------------------------------------------------------------------------------------
async function loadHistory() {
  const form = new FormData($('#history-filters'));
  const params = new URLSearchParams({ offset: state.historyOffset, limit: PAGE });
  if (form.get('model_name')) params.set('model_name', form.get('model_name'));
  if (form.get('status')) params.set('status', form.get('status'));
  if (form.get('kind')) params.set('kind', form.get('kind'));
  if (form.get('since')) params.set('since', new Date(form.get('since')).toISOString());
  if (form.get('until')) params.set('until', new Date(form.get('until')).toISOString());
  try {
    const page = await api('/api/runs?' + params);
    state.historyTotal = page.total;
    const rows = page.runs.map((run) => {
      const row = el('tr');
      row.dataset.runId = run.run_id;
      row.dataset.startedAt = run.started_at || '';
      const pick = el('input');
      pick.type = 'checkbox';
      pick.className = 'pick';
      pick.addEventListener('click', (event) => event.stopPropagation());
      const cell = el('td');
      cell.append(pick);
      const status = el('td');
      status.append(el('span', run.status, 'badge ' + run.status));
      const reason = errorType(run);
      if (reason) {
        status.append(document.createTextNode(' '), el('span', reason, 'error-type'));
        status.title = run.error.message || '';
      }
      const remove = el('button', 'Delete', 'danger');
      remove.addEventListener('click', (event) => { event.stopPropagation(); deleteRun(run.run_id); });
      const actions = el('td');
      actions.append(remove);
      row.append(cell, el('td', shortId(run.run_id)), el('td', run.kind), el('td', run.model_name), status, el('td', percent(judgedNothing(run) ? null : run.total_score)),
        el('td', run.counts.total), el('td', when(run.started_at)), actions);
      row.addEventListener('click', () => go('runs', run.run_id));
      return row;
    });
    $('#history-table tbody').replaceChildren(...rows);
    const last = Math.min(state.historyOffset + PAGE, page.total);
    $('#history-page').textContent = (page.total ? state.historyOffset + 1 : 0) + '–' + last + ' of ' + page.total;
    $('#history-prev').disabled = state.historyOffset === 0;
    $('#history-next').disabled = last >= page.total;
  } catch (error) {
    showMessage('Could not load history: ' + error.message);
  }
}

async function deleteRun(runId) {
  if (!confirm('Delete run ' + shortId(runId) + ' and all its items?')) return;
  try {
    await api('/api/runs/' + runId, { method: 'DELETE' });
    if (state.detailRunId === runId) state.detailRunId = null;
    loadHistory();
  } catch (error) {
    showMessage('Could not delete: ' + error.message);
  }
}

// An interrupted run (its process died) is given up without a process to stop: it ends cancelled at once.
async function cancelInterrupted(runId) {
  try {
    await api('/api/runs/' + runId + '/cancel', { method: 'POST' });
    showMessage('Cancelled run ' + shortId(runId) + '; its finished items are kept');
    if (state.detailRunId === runId) await loadDetail();
  } catch (error) {
    showMessage('Could not cancel: ' + error.message);
  }
}

// A run whose suite files changed since it started is refused (run.suite_changed): its finished items were judged by
// the cases it started with. Asked, it continues with those cases as the database keeps them.
async function resumeRun(runId, storedCases = false) {
  try {
    const options = storedCases ? { method: 'POST', body: { stored_cases: true } } : { method: 'POST' };
    const resumed = await api('/api/runs/' + runId + '/resume', options);
    showMessage('Resumed run ' + shortId(runId) + ': ' + resumed.kept + ' finished items kept');
    go('run');
    $('#live-log').replaceChildren();
    follow(runId, true);
  } catch (error) {
    if (!storedCases && error.problem && error.problem.type === 'run.suite_changed'
        && confirm(error.message + ' (' + error.problem.type + ')\n\nContinue the run with the cases it was started with?')) {
      await resumeRun(runId, true);
      return;
    }
    showMessage('Could not resume: ' + error.message);
  }
}

// ---- detail --------------------------------------------------------------------------------------------------
async function openDetail(runId) {
  state.detailRunId = runId;
  state.itemsOffset = 0;
  show('detail');
  await loadDetail();
}

// The detail (run, coverage, first page of items) is read once; paging reads only items.
async function loadDetail() {
  const runId = state.detailRunId;
  try {
    const detail = await api('/api/runs/' + runId + '?offset=0&limit=' + PAGE);
    const run = detail.run;
    state.itemsOffset = 0;
    state.detailRun = run;
    $('#detail-run-id').textContent = shortId(run.run_id);
    setStatus($('#detail-status'), run.status);
    // A run that ended without finishing continues from its stored description (POST .../resume) when the server says
    // it can: a recording's run calls nothing, a dialog run stored without its description cannot be read back.
    $('#detail-resume').hidden = !detail.resumable || !['interrupted', 'cancelled', 'failed'].includes(run.status);
    $('#detail-cancel').hidden = run.status !== 'interrupted';
    const c = run.counts;
    const noun = run.kind === 'dialog' ? ' dialogs: ok ' : ' items: passed ';
    $('#detail-summary').textContent = run.kind + ' · ' + run.model_name + ' · ' + run.case_set + ' · total '
      + percent(judgedNothing(run) ? null : run.total_score) + ' · ' + c.total + noun + c.passed + ', failed ' + c.failed + ', partial '
      + c.partial + ', skipped ' + c.skipped + ', errors ' + c.error + ', cancelled ' + c.cancelled + ' · started '
      + when(run.started_at) + costText(detail.cost);
    $('#detail-reason').hidden = !run.error;
    $('#detail-reason').textContent = run.error ? 'Reason: ' + run.error.message + ' (' + run.error.type + ')' : '';
    document.querySelectorAll('.exports a').forEach((link) => {
      link.href = withToken('/api/runs/' + runId + '/report?format=' + link.dataset.format);
      link.target = '_blank';
    });
    // The bars are the runs' item means: intervals of reduced samples are around another score, so they get the plain ones.
    drawScores('detail', run.dimension_scores,
      detail.intervals && detail.intervals.reducer ? detail.dimension_stats : intervalsOf(detail));
    renderStats(detail);
    renderMatrix(detail);
    const dialog = run.kind === 'dialog';
    $('#capability-view').hidden = dialog;
    $('#dialog-view').hidden = !dialog;
    if (dialog) {
      renderDialogMetrics(run.config && run.config.metrics_summary);
      $('#dialog-turns').replaceChildren();
      $('#dialog-id').textContent = '';
      $('#dialog-error').textContent = '';
      setStatus($('#dialog-status'), '');
    } else {
      renderCoverage(detail.coverage);
      fillItemFilters(detail);
      resetItemPane();
      state.review = null;
      showReview();
      await loadLabels(runId);
    }
    renderItems(detail);
  } catch (error) {
    showMessage('Could not load the run: ' + error.message);
  }
}

async function loadItems() {
  try {
    renderItems(await api('/api/runs/' + state.detailRunId + '/items?' + itemQuery()));
  } catch (error) {
    showMessage('Could not load the items: ' + error.message);
  }
}

function renderItems(page) {
  state.itemsTotal = page.items_total;
  if (state.detailRun.kind === 'dialog') renderDialogItems(page.items);
  else renderCapabilityItems(page.items);
  const last = Math.min(state.itemsOffset + PAGE, page.items_total);
  document.querySelectorAll('.items-page').forEach((node) => {
    node.textContent = (page.items_total ? state.itemsOffset + 1 : 0) + '–' + last + ' of ' + page.items_total;
  });
  document.querySelectorAll('.items-prev').forEach((node) => { node.disabled = state.itemsOffset === 0; });
  document.querySelectorAll('.items-next').forEach((node) => { node.disabled = last >= page.items_total; });
}

function statusCell(status) {
  const cell = el('td');
  cell.append(el('span', status, 'badge ' + status));
  return cell;
}

function selectRow(table, row) {
  document.querySelectorAll(table + ' tr.selected').forEach((node) => node.classList.remove('selected'));
  row.classList.add('selected');
}

function renderCapabilityItems(items) {
  const runId = state.detailRunId;
  const rows = items.map((item) => {
    const row = el('tr');
    row.dataset.position = item.position;
    row.dataset.status = item.status;
    row.dataset.caseId = item.case_id;
    row.tabIndex = -1;
    row.append(el('td', item.position + 1), el('td', item.case_id, 'wrap'), el('td', item.dimension),
      statusCell(item.status), el('td', item.score.toFixed(2)));
    row.addEventListener('click', () => runId === state.detailRunId && selectItemRow(row));
    return row;
  });
  $('#detail-items tbody').replaceChildren(...rows);
  if (!rows.length) {
    const none = el('tr');
    const cell = el('td', 'no item matches the filters', 'muted');
    cell.colSpan = 5;
    none.append(cell);
    $('#detail-items tbody').append(none);
  }
}

// ---- tool coverage ---------------------------------------------------------------------------------------------
function renderCoverage(coverage) {
  if (!coverage) return;
  $('#coverage-summary').textContent = coverage.exercised.length + ' of ' + coverage.available.length
    + ' offered tools exercised (' + percent(coverage.exercised_share) + '%) · never called: '
    + (coverage.never_called.join(', ') || 'none') + ' · ' + coverage.skipped.length + ' skipped cases';
  $('#coverage-tools tbody').replaceChildren(...Object.entries(coverage.calls).map(([tool, calls]) => {
    const offered = coverage.available.includes(tool);
    const verdict = !offered ? 'not offered' : calls > 0 ? 'exercised' : 'never called';
    const row = el('tr');
    row.dataset.tool = tool;
    const cell = el('td');
    cell.append(el('span', verdict, 'badge ' + (!offered ? 'error' : calls > 0 ? 'passed' : 'skipped')));
    row.append(el('td', tool, 'wrap'), el('td', calls), cell);
    return row;
  }));
  $('#coverage-tags tbody').replaceChildren(...Object.entries(coverage.by_tag).map(([tag, c]) => {
    const row = el('tr');
    row.append(el('td', tag), el('td', c.total), el('td', c.passed), el('td', c.failed), el('td', c.partial),
      el('td', c.skipped), el('td', c.error));
    return row;
  }));
  const skipped = coverage.skipped.map((skip) => {
    const row = el('tr');
    const missing = Object.entries(skip.missing_tools).map(([tool, why]) => tool + (why ? ' (' + why + ')' : ''));
    row.append(el('td', skip.case_id, 'wrap'), el('td', skip.type || '–'), el('td', skip.reason, 'wrap'),
      el('td', missing.join(', ') || '–', 'wrap'));
    return row;
  });
  if (!skipped.length) {
    const none = el('tr');
    const cell = el('td', 'no case was skipped', 'muted');
    cell.colSpan = 4;
    none.append(cell);
    skipped.push(none);
  }
  $('#coverage-skipped tbody').replaceChildren(...skipped);
}

// ---- dialog runs -----------------------------------------------------------------------------------------------
const metricLabel = (name) => name.slice(0, 2).toUpperCase() + ' ' + name.slice(3).replaceAll('_', ' ');
const fixed = (value) => typeof value === 'number' ? value.toFixed(3) : '–';

function renderDialogMetrics(summary) {
  const metrics = Object.entries((summary && summary.metrics) || {});
  state.dialogMetrics = metrics;
  const c = (summary && summary.counters) || {};
  $('#dialog-counters').textContent = Object.entries(c).map(([name, value]) => name + ' ' + value).join(' · ');
  const rows = [];
  for (const [name, metric] of metrics) {
    const keys = [...new Set([...Object.keys(metric.micro || {}), ...Object.keys(metric.macro || {})])];
    keys.forEach((key, index) => {
      const row = el('tr');
      row.dataset.metric = name;
      if (index === 0) {
        const label = el('th', metricLabel(name));
        label.rowSpan = keys.length;
        row.append(label);
      }
      row.append(el('td', key), el('td', fixed((metric.micro || {})[key]), 'num'),
        el('td', fixed((metric.macro || {})[key]), 'num'));
      if (index === 0) {
        const counts = el('td', Object.entries(metric.counts || {}).map(([k, v]) => k + ' ' + v).join(', '), 'wrap');
        counts.rowSpan = keys.length;
        row.append(counts);
      }
      rows.push(row);
    });
  }
  $('#dialog-metrics tbody').replaceChildren(...rows);
}

// One column per by-dialog value (the macro keys are the means of the same values).
function renderDialogItems(items) {
  const metrics = state.dialogMetrics || [];
  const groups = el('tr');
  for (const title of ['#', 'Dialog', 'Scenario', 'Status', 'Score']) {
    const th = el('th', title);
    th.rowSpan = 2;
    groups.append(th);
  }
  const keys = el('tr');
  for (const [name, metric] of metrics) {
    const th = el('th', metricLabel(name), 'group');
    th.colSpan = Math.max(1, Object.keys(metric.macro || {}).length);
    groups.append(th);
    Object.keys(metric.macro || {}).forEach((key) => keys.append(el('th', key.replaceAll('_', ' '), 'key')));
  }
  $('#dialog-items thead').replaceChildren(groups, keys);
  $('#dialog-items tbody').replaceChildren(...items.map((item, index) => {
    const row = el('tr');
    row.dataset.dialogId = item.case_id;
    row.append(el('td', state.itemsOffset + index + 1), el('td', item.case_id, 'wrap'), el('td', item.dimension),
      statusCell(item.status), el('td', item.score.toFixed(2), 'num'));
    const values = (item.checker_detail && item.checker_detail.metrics) || {};
    for (const [name, metric] of metrics) {
      const mine = values[name.slice(0, 2)] || {};
      Object.keys(metric.macro || {}).forEach((key) => row.append(el('td', fixed(mine[key]), 'num')));
    }
    row.addEventListener('click', () => {
      selectRow('#dialog-items', row);
      renderDialog(item);
    });
    return row;
  }));
}

const listText = (values) => (values && values.length ? values.join(', ') : 'none');

function verdictRow(metric, eligible, text) {
  const row = el('tr');
  row.append(el('th', metric), el('td', eligible ? 'eligible' : 'not eligible', eligible ? '' : 'muted'),
    el('td', text, 'wrap'));
  return row;
}

function renderDialog(item) {
  $('#dialog-id').textContent = item.case_id;
  setStatus($('#dialog-status'), item.status);
  $('#dialog-error').textContent = item.error ? item.error.type + ': ' + item.error.message : '';
  const turns = ((item.checker_detail && item.checker_detail.turns) || []).map((turn) => {
    const block = el('div', null, 'turn');
    const title = el('h4', 'Turn ' + turn.turn_pair_id + ' ');
    title.append(el('span', turn.turn_status, 'badge ' + (turn.turn_status === 'ok' ? 'passed' : 'error')));
    block.append(title, el('h5', 'User'), el('pre', turn.user_text, 'user-text'),
      el('h5', 'Prediction'), el('pre', turn.pred_assistant_text, 'prediction'));
    if (turn.error) block.append(el('h5', 'Error'), el('pre', turn.error, 'turn-error'));
    block.append(el('h5', 'Recall sources'));
    const sources = el('ul', null, 'recall');
    (turn.recall_sources || []).forEach((source) => {
      const line = el('li');
      line.append(el('b', source.source || 'item'), document.createTextNode(' ' + source.content));
      sources.append(line);
    });
    if (!sources.children.length) sources.append(el('li', 'none reported', 'muted'));
    block.append(sources, el('h5', 'Verdicts'));
    const hits = (turn.key_hit_flags || []).filter((flag) => flag === 1).length;
    const verdicts = el('table', null, 'verdicts');
    const body = el('tbody');
    body.append(
      verdictRow('M1 memory', turn.eligible_m1, 'keys ' + listText(turn.required_keys_raw) + ' · hit ' + hits + '/'
        + (turn.key_hit_flags || []).length + ' · sources ' + listText((turn.key_hit_sources || []).flat())
        + ' · contradiction ' + turn.constraint_contradiction),
      verdictRow('M3 risk', turn.eligible_m3, 'required ' + listText(turn.risk_required_tags) + ' · mentioned '
        + listText(turn.risk_pred_tags) + ' · hits ' + turn.risk_tag_hits + '/' + (turn.risk_required_tags || []).length),
      verdictRow('M4 compliance', turn.eligible_m4, 'predicted ' + turn.pred_compliance_label + ' · reference '
        + turn.gt_compliance_label + ' · forbidden ' + listText(turn.forbidden_hits)),
      verdictRow('M5 explainability', turn.eligible_m5, 'rubric ' + (turn.rubric_hit_items || []).length + '/'
        + (turn.rubric_required || []).length + ' (' + listText(turn.rubric_hit_items) + ') · judge '
        + (turn.judge_score_1_5 === null || turn.judge_score_1_5 === undefined ? '–' : turn.judge_score_1_5)));
    verdicts.append(body);
    block.append(verdicts);
    return block;
  });
  if (!turns.length) turns.push(el('p', 'no turns were played', 'muted'));
  $('#dialog-turns').replaceChildren(...turns);
}

// ---- one item: the conversation and the checks in words ---------------------------------------------------------
const LONG_TEXT = 1200;
const THINK_BLOCK = /<(think|thinking)>([\s\S]*?)(?:<\/\1>|$)/gi;

// A long text shows its start and a "show all" button that swaps in the whole text (still as text).
function longText(text, className) {
  const value = String(text === undefined || text === null ? '' : text);
  const box = el('div', null, 'text ' + (className || ''));
  if (value.length <= LONG_TEXT) {
    box.textContent = value;
    return box;
  }
  const body = el('span', value.slice(0, LONG_TEXT) + '…');
  const more = el('button', 'show all (' + value.length.toLocaleString() + ' characters)', 'show-all');
  more.type = 'button';
  more.addEventListener('click', () => { body.textContent = value; more.remove(); });
  box.append(body, document.createElement('br'), more);
  return box;
}

function folded(summary, content, className, open) {
  const box = el('details', null, className);
  box.open = Boolean(open);
  box.append(el('summary', summary), content);
  return box;
}

const pretty = (value) => typeof value === 'string' ? value : JSON.stringify(value, null, 2);
const seconds = (ms) => (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';

// Assistant text with its <think> blocks folded away: the reader sees the answer first.
function assistantText(text) {
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(THINK_BLOCK)) {
    if (match.index > last) parts.push(longText(text.slice(last, match.index)));
    parts.push(folded('Reasoning (' + match[2].trim().length + ' characters)', longText(match[2].trim()), 'reasoning'));
    last = match.index + match[0].length;
  }
  if (last < text.length && text.slice(last).trim()) parts.push(longText(text.slice(last).trim()));
  return parts;
}

function message(role, label, meta) {
  const box = el('div', null, 'message ' + role);
  const head = el('div', null, 'message-head');
  head.append(el('b', label));
  if (meta) head.append(el('span', meta, 'muted'));
  box.append(head);
  return box;
}

function usageText(usage) {
  if (!usage || !(usage.input_tokens || usage.output_tokens)) return '';
  return usage.input_tokens + ' in · ' + usage.output_tokens + ' out tokens';
}

function argumentPreview(args) {
  const text = JSON.stringify(args === undefined ? {} : args);
  return text.length > 80 ? text.slice(0, 79) + '…' : text;
}

function toolBlock(call, output) {
  const failed = output && !output.ok;
  const state = !output ? 'no result' : output.ok ? 'ok' : 'failed';
  const box = el('details', null, 'tool-call' + (failed ? ' failed' : ''));
  box.open = failed;
  const summary = el('summary');
  summary.append(el('b', call.raw_name && call.raw_name !== call.tool ? call.raw_name + ' → ' + call.tool : call.tool),
    el('code', argumentPreview(call.arguments), 'args-preview'), el('span', state, 'badge ' + (failed ? 'failed' : output ? 'passed' : 'skipped')));
  box.append(summary, el('h5', 'Arguments'), el('div', pretty(call.arguments), 'text code tool-args'));
  if (output) {
    box.append(el('h5', 'Result' + (output.at && call.at ? ' · ' + seconds(new Date(output.at) - new Date(call.at)) : '')),
      longText(output.output, 'tool-result'));
    if (output.error) box.append(el('p', output.error.type + ': ' + output.error.message, 'error-text'));
  }
  return box;
}

// The transcript as a conversation: the prompt (or the simulated user's turns), then each model turn with its tool calls
// and their results.
function conversation(item) {
  const events = Array.isArray(item.transcript) ? item.transcript : [];
  const outputs = new Map(events.filter((e) => e.type === 'tool_output').map((e) => [e.call_id, e]));
  const nodes = [];
  if (item.prompt || !events.some((e) => e.type === 'user_turn')) {
    const user = message('user', 'User');
    user.append(longText(item.prompt));
    nodes.push(user);
  }
  let userTurns = 0;
  let previous = item.started_at ? new Date(item.started_at) : null;
  let turn = null;
  let totals = { input: 0, output: 0, turns: 0 };
  const elapsed = (event) => {
    const at = event.at ? new Date(event.at) : null;
    const text = at && previous ? seconds(at - previous) : '';
    if (at) previous = at;
    return text;
  };
  events.forEach((event, index) => {
    if (event.type === 'model_turn') {
      totals.turns++;
      totals.input += (event.usage && event.usage.input_tokens) || 0;
      totals.output += (event.usage && event.usage.output_tokens) || 0;
      const meta = [usageText(event.usage), elapsed(event)].filter(Boolean).join(' · ');
      turn = message('assistant', 'Assistant · turn ' + totals.turns, meta);
      turn.dataset.text = event.text || '';
      if (event.reasoning) turn.append(folded('Reasoning (' + event.reasoning.length + ' characters)', longText(event.reasoning), 'reasoning'));
      turn.append(...assistantText(event.text || ''));
      nodes.push(turn);
    } else if (event.type === 'tool_call') {
      const block = toolBlock(event, outputs.get(event.call_id));
      elapsed(event);
      if (turn) turn.append(block); else nodes.push(block);
    } else if (event.type === 'tool_output') {
      if (!events.some((e) => e.type === 'tool_call' && e.call_id === event.call_id)) {
        const orphan = message('tool', 'Tool result · ' + event.tool);
        orphan.append(longText(event.output, 'tool-result'));
        nodes.push(orphan);
      }
      elapsed(event);
    } else if (event.type === 'final_answer' && turn && turn.dataset.text === event.text) {
      // The model's last turn was its answer: say so on the turn instead of repeating the text.
      elapsed(event);
      turn.classList.add('final');
      turn.querySelector('.message-head').append(el('span', 'final answer', 'badge passed'));
      turn = null;
    } else if (event.type === 'final_answer') {
      const final = message('final', 'Final answer', elapsed(event));
      final.append(longText(event.text));
      nodes.push(final);
      turn = null;
    } else if (event.type === 'user_turn') {
      userTurns++;
      const said = message('user', 'User (simulated) · turn ' + userTurns,
        [usageText(event.usage), elapsed(event)].filter(Boolean).join(' · '));
      said.append(longText(event.text));
      nodes.push(said);
    } else if (event.type === 'target_error') {
      const failure = message('target-error', 'Target error', elapsed(event));
      const problem = event.problem || {};
      failure.append(el('p', (problem.type || 'error') + ': ' + (problem.message || ''), 'error-text'));
      nodes.push(failure);
    } else {
      const other = message('other', event.type || 'event ' + index, elapsed(event));
      other.append(el('div', pretty(event), 'text code'));
      nodes.push(other);
    }
  });
  const summary = [totals.turns + ' model turn' + (totals.turns === 1 ? '' : 's'),
    totals.input || totals.output ? totals.input + ' in · ' + totals.output + ' out tokens' : '',
    typeof item.elapsed_s === 'number' ? item.elapsed_s.toFixed(2) + ' s in all' : ''].filter(Boolean).join(' · ');
  nodes.push(el('p', summary, 'muted conversation-total'));
  return nodes;
}

// ---- diffs: a small LCS diff, by words (and each punctuation mark) within a line, by lines across lines -------------
const DIFF_CELLS = 4000000;
// Han and kana characters count one by one: those scripts put no spaces between words.
const words = (text) => text.match(/\s+|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu) || [];

function lcsDiff(a, b) {
  const n = a.length;
  const m = b.length;
  if ((n + 1) * (m + 1) > DIFF_CELLS) return null;
  const width = m + 1;
  const table = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * width + j] = a[i] === b[j] ? table[(i + 1) * width + j + 1] + 1
        : Math.max(table[(i + 1) * width + j], table[i * width + j + 1]);
    }
  }
  const parts = [];
  const push = (kind, value) => {
    const last = parts[parts.length - 1];
    if (last && last.kind === kind) last.values.push(value); else parts.push({ kind, values: [value] });
  };
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) { push('same', a[i]); i++; j++; }
    else if (table[(i + 1) * width + j] >= table[i * width + j + 1]) push('removed', a[i++]);
    else push('added', b[j++]);
  }
  while (i < n) push('removed', a[i++]);
  while (j < m) push('added', b[j++]);
  return parts;
}

// Expected against actual: removed (expected only) struck through, added (actual only) marked.
function diffView(expected, actual) {
  const a = String(expected === undefined || expected === null ? '' : expected);
  const b = String(actual === undefined || actual === null ? '' : actual);
  const byLines = a.includes('\n') || b.includes('\n');
  const parts = byLines ? lcsDiff(a.split('\n'), b.split('\n')) : lcsDiff(words(a), words(b));
  const box = el('div', null, 'text diff' + (byLines ? ' by-lines' : ''));
  if (!parts) {
    box.append(el('span', 'too long to compare here (' + a.length + ' and ' + b.length + ' characters)', 'muted'));
    return box;
  }
  const tags = { same: 'span', removed: 'del', added: 'ins' };
  const marks = { same: '  ', removed: '- ', added: '+ ' };
  for (const part of parts) {
    const text = byLines ? part.values.map((line) => marks[part.kind] + line + '\n').join('') : part.values.join('');
    box.append(el(tags[part.kind], text));
  }
  return box;
}

// ---- the checks in words -------------------------------------------------------------------------------------------
function marked(text, spans) {
  const value = String(text || '');
  const box = el('div', null, 'text marked');
  let at = 0;
  [...spans].sort((x, y) => x.start - y.start).forEach((span) => {
    if (span.start < at || span.end > value.length) return;
    box.append(document.createTextNode(value.slice(at, span.start)), el('mark', value.slice(span.start, span.end)));
    at = span.end;
  });
  box.append(document.createTextNode(value.slice(at)));
  return box;
}

function facts(pairs) {
  const list = el('dl', null, 'facts');
  for (const [name, value] of pairs) {
    if (value === undefined || value === null || value === '') continue;
    list.append(el('dt', name));
    const cell = el('dd');
    if (value instanceof Node) cell.append(value); else cell.textContent = typeof value === 'object' ? JSON.stringify(value) : String(value);
    list.append(cell);
  }
  return list;
}

function table(headers, rows, className) {
  const node = el('table', null, 'data ' + (className || ''));
  const head = el('tr');
  headers.forEach((header) => head.append(el('th', header)));
  const thead = el('thead');
  thead.append(head);
  const body = el('tbody');
  rows.forEach((cells) => {
    const row = el('tr');
    cells.forEach((cell) => row.append(cell instanceof Node ? cell : el('td', cell, 'wrap')));
    body.append(row);
  });
  node.append(thead, body);
  const wrap = el('div', null, 'table-wrap');
  wrap.append(node);
  return wrap;
}

const jsonText = (value) => value === undefined ? '–' : JSON.stringify(value);

// A test's input as a call's arguments: positional ones ("#0", "#1") by value, named ones as name = value.
function argumentsText(input) {
  if (input && typeof input === 'object' && !Array.isArray(input)) {
    return Object.entries(input).map(([name, value]) => (/^#\d+$/.test(name) ? '' : name + ' = ') + JSON.stringify(value))
      .join(', ');
  }
  return Array.isArray(input) ? input.map((value) => JSON.stringify(value)).join(', ') : typeof input === 'string' ? input : jsonText(input);
}
const list = (values) => (values || []).join(', ') || 'none';

const CHECK_VIEWS = {
  exact: (d) => [facts([['Expected', longText(d.expected)], ['Actual', longText(d.actual)]]),
    el('h5', 'Difference (expected → actual, as compared)'), diffView(d.normalized_expected, d.normalized_actual)],
  contains: (d) => [facts([['Expected fragments', (d.expected || []).map((f) => ((d.missing || []).includes(f) ? '✗ ' : '✓ ') + f).join('   ')],
    ['Missing', list(d.missing)]]), el('h5', 'Answer, found fragments marked'), marked(d.actual, d.spans || [])],
  regex: (d) => {
    const start = typeof d.match_start === 'number' ? d.match_start : d.match ? String(d.actual).indexOf(d.match) : -1;
    const spans = start >= 0 && d.match !== null ? [{ start, end: typeof d.match_end === 'number' ? d.match_end : start + d.match.length }] : [];
    return [facts([['Pattern', d.pattern], ['Matched', d.match === null ? 'nothing' : d.match], ['Error', d.error]]),
      el('h5', 'Answer, match marked'), marked(d.actual, spans)];
  },
  choice: (d) => [facts([['Accepted', list(d.expected)], ['Read', d.normalized || 'no letter'], ['Rule', d.rule]]),
    el('h5', 'Answer'), longText(d.actual)],
  file_contains: (d) => [facts([['File', d.path], ['Expected fragments', (d.expected || []).map((f) => ((d.missing || []).includes(f) ? '✗ ' : '✓ ') + f).join('   ')],
    ['Missing', list(d.missing)], ['Error', d.error]])],
  file_exists: (d) => [facts([['Path', d.path], ['Wanted', d.type], ['Found', d.exists ? d.kind : 'nothing'], ['Size', d.size]])],
  json_schema: (d) => [facts([['Document', d.path], ['Valid', d.valid], ['Error', d.error]]),
    ...(d.errors && d.errors.length ? [table(['Failing path', 'Keyword', 'Message'], d.errors.map((e) => [e.instance_location || '/', e.keyword, e.message]), 'schema-errors')] : [])],
  json_contains: (d) => [facts([['Document', d.path], ['Required', jsonText(d.required)], ['Error', d.error]]),
    ...(d.mismatch ? [el('p', 'First difference at ' + (d.mismatch.path || '/') + ' (' + d.mismatch.kind + '): expected '
      + jsonText(d.mismatch.expected) + ', got ' + jsonText(d.mismatch.actual), 'mismatch')] : [])],
  code: (d) => [facts([['Tests passed', d.passed + ' of ' + d.total], ['Language', d.language], ['Sandbox', d.sandbox],
    ['Tests from', d.source],
    ['Comparison', d.compare && typeof d.compare === 'object' ? d.compare.mode + (d.compare.mode === 'float' ? ' (tolerance ' + d.compare.tolerance + ')' : '') : d.compare], ['Parse', d.parse_status]]),
    table(['Test', 'Status', 'Input', 'Expected', 'Actual', 'Message'], (d.cases || []).map((c) => {
      const status = el('td');
      status.append(el('span', c.status, 'badge ' + (c.status === 'passed' ? 'passed' : 'failed')));
      return [c.label, status, argumentsText(c.input), jsonText(c.expected), jsonText(c.actual), c.message || ''];
    }), 'code-tests')],
};

function checkView(check) {
  const box = el('div', null, 'check ' + check.status);
  box.dataset.checker = check.checker;
  const head = el('div', null, 'check-head');
  head.append(el('b', check.checker), el('span', check.status, 'badge ' + check.status),
    el('span', 'score ' + Number(check.score).toFixed(2) + (check.weight !== undefined ? ' · weight ' + check.weight : ''), 'muted'));
  box.append(head);
  if (check.message) box.append(el('p', (check.error_type ? check.error_type + ': ' : '') + check.message, 'why'));
  const detail = check.detail && typeof check.detail === 'object' ? check.detail : null;
  const view = CHECK_VIEWS[check.checker];
  if (detail && view) box.append(...view(detail));
  else if (detail) box.append(folded('Evidence', el('div', pretty(detail), 'text code'), 'evidence', true));
  return box;
}

function checksView(item) {
  const checks = (item.checker_detail && item.checker_detail.checks) || [];
  if (!checks.length) return [el('p', 'no checks were made', 'muted')];
  return checks.map((check, index) => {
    const box = checkView(check);
    box.append(...labelsOf(item.case_id, index).map((label) => el('p', labelText(label), 'label')));
    return box;
  });
}

// ---- people's labels and the judges' agreement with them (docs/judge.md) ----------------------------------------
// A label sits beside the machine's verdict, never over it; all text is set as text, so nothing in it is markup.
const labelsOf = (caseId, check) => (state.labels || []).filter((l) => l.case_id === caseId && l.check === check);

function labelText(label) {
  const said = [label.label, label.score === null || label.score === undefined ? '' : 'score ' + label.score]
    .filter(Boolean).join(', ');
  return 'Labelled by ' + label.by + ': ' + said + (label.note ? ' (' + label.note + ')' : '');
}

async function loadLabels(runId) {
  state.labels = (await api('/api/runs/' + runId + '/labels')).labels;
  const calibration = await api('/api/judges/calibration?runs=' + encodeURIComponent(runId));
  const interval = (bounds) => bounds ? ' [' + bounds[0].toFixed(3) + ', ' + bounds[1].toFixed(3) + ']' : '';
  const rows = Object.entries(calibration.judges).map(([model, judge]) => {
    const row = el('tr');
    row.dataset.model = model;
    const c = judge.confusion;
    row.append(el('td', model), el('td', judge.n), el('td', fixed(judge.accuracy) + interval(judge.accuracy_interval)),
      el('td', judge.kappa === null ? 'undefined' : fixed(judge.kappa) + interval(judge.kappa_interval), 'kappa'),
      el('td', c.judge_pass_human_pass), el('td', c.judge_pass_human_fail), el('td', c.judge_fail_human_pass),
      el('td', c.judge_fail_human_fail));
    return row;
  });
  $('#calibration tbody').replaceChildren(...rows);
}

// The review queue: every check of the chosen checker (where judges disagree, if asked), one at a time.
async function startReview() {
  const runId = state.detailRunId;
  const checker = $('#review-checker').value.trim();
  const queue = [];
  for (let offset = 0; ; offset += 500) {
    const page = await api('/api/runs/' + runId + '/items?offset=' + offset + '&limit=500');
    for (const item of page.items) {
      ((item.checker_detail && item.checker_detail.checks) || []).forEach((check, index) => {
        if (checker && check.checker !== checker) return;
        if ($('#review-disagreement').checked && !(check.detail && check.detail.disagreement)) return;
        queue.push({ item, check, index });
      });
    }
    if (offset + 500 >= page.items_total) break;
  }
  state.review = { runId, queue, at: 0 };
  showReview();
}

function showReview() {
  const review = state.review;
  const entry = review && review.queue[review.at];
  $('#review-current').hidden = !entry;
  if (!entry) {
    $('#review-status').textContent = review ? 'Review done: ' + review.queue.length + ' check(s) shown.' : '';
    state.review = null;
    return;
  }
  $('#review-position').textContent = (review.at + 1) + ' of ' + review.queue.length + ' · ' + entry.item.case_id
    + ' · check ' + entry.index + ' (' + entry.check.checker + ')';
  $('#review-prompt').textContent = entry.item.prompt;
  $('#review-answer').textContent = entry.item.final_answer;
  const verdict = checkView(entry.check);
  verdict.append(...labelsOf(entry.item.case_id, entry.index).map((label) => el('p', labelText(label), 'label')));
  $('#review-verdict').replaceChildren(verdict);
  $('#review-note').value = '';
  $('#review-status').textContent = '';
}

async function labelCurrent(body) {
  const review = state.review;
  const entry = review.queue[review.at];
  body.check = entry.index;
  body.note = $('#review-note').value;
  body.by = $('#review-by').value.trim() || 'page';
  try {
    await api('/api/runs/' + review.runId + '/items/' + entry.item.position + '/labels',
      { method: 'POST', body });
    await loadLabels(review.runId);
    review.at += 1;
    showReview();
  } catch (error) {
    $('#review-status').textContent = 'Could not keep the label: ' + error.message;
  }
}

function reviewKey(event) {
  const key = event.key;
  if (key === 'Escape') state.review.at = state.review.queue.length;
  else if (key === 's') state.review.at += 1;
  else if (key === 'n') $('#review-note').focus();
  else if (key === 'p') labelCurrent({ label: 'pass' });
  else if (key === 'f') labelCurrent({ label: 'fail' });
  else if (/^[0-9]$/.test(key)) labelCurrent({ score: Number(key) });
  else return;
  event.preventDefault();
  if (key === 'Escape' || key === 's') showReview();
}

// ---- the item pane ---------------------------------------------------------------------------------------------
function renderItemDetail(item) {
  $('#item-case-id').textContent = item.case_id;
  setStatus($('#item-status'), item.status);
  $('#item-meta').textContent = [item.dimension, 'score ' + Number(item.score).toFixed(2),
    typeof item.elapsed_s === 'number' ? item.elapsed_s.toFixed(2) + ' s' : '', item.truncated ? 'stored cut' : '']
    .filter(Boolean).join(' · ');
  $('#item-error').textContent = item.error ? item.error.type + ': ' + item.error.message : '–';
  $('#item-checks').replaceChildren(...checksView(item));
  $('#item-conversation').replaceChildren(...conversation(item));
  $('#item-final-answer').textContent = item.final_answer;
  $('#item-prompt').textContent = item.prompt;
  $('#item-tool-calls').textContent = JSON.stringify(item.tool_calls, null, 2);
  $('#item-checker').textContent = JSON.stringify(item.checker_detail, null, 2);
  $('#item-transcript').replaceChildren(...(Array.isArray(item.transcript) ? item.transcript : []).map((entry) => {
    const block = el('div', null, 'event');
    block.append(el('b', entry.type || 'event'), el('pre', JSON.stringify(entry, null, 2)));
    return block;
  }));
}

async function openItem(runId, position) {
  try {
    renderItemDetail(await api('/api/runs/' + runId + '/items/' + position));
  } catch (error) {
    showMessage('Could not load the item: ' + error.message);
  }
}

function resetItemPane() {
  for (const id of ['#item-case-id', '#item-meta', '#item-final-answer', '#item-prompt', '#item-tool-calls', '#item-checker']) {
    $(id).textContent = '';
  }
  $('#item-error').textContent = '–';
  setStatus($('#item-status'), '');
  $('#item-checks').replaceChildren(el('p', 'Pick an item, or press j / k for the next / previous failed one.', 'muted'));
  $('#item-conversation').replaceChildren();
  $('#item-transcript').replaceChildren();
}

// ---- item filters and keyboard navigation ----------------------------------------------------------------------
function fillItemFilters(detail) {
  const form = $('#item-filters');
  form.reset();
  const options = (select, values) => {
    select.replaceChildren(el('option', 'any'));
    select.firstChild.value = '';
    values.forEach((value) => {
      const option = el('option', value);
      option.value = value;
      select.append(option);
    });
  };
  options(form.dimension, Object.keys(detail.run.dimension_scores || {}));
  options(form.language, detail.languages || []);
  options(form.tag, Object.keys((detail.coverage && detail.coverage.by_tag) || {}));
}

function itemQuery() {
  const params = new URLSearchParams({ offset: state.itemsOffset, limit: PAGE });
  const form = new FormData($('#item-filters'));
  for (const name of ['status', 'dimension', 'language', 'tag', 'q']) {
    const value = (form.get(name) || '').trim();
    if (value) params.set(name, value);
  }
  return params;
}

const NOT_PASSED = ['failed', 'partial', 'error'];

function selectItemRow(row) {
  selectRow('#detail-items', row);
  row.focus({ preventScroll: true });
  row.scrollIntoView({ block: 'nearest' });
  openItem(state.detailRunId, Number(row.dataset.position));
}

// j/n and k/p: the next or previous item that did not pass, across pages.
async function moveToFailed(step) {
  const rows = [...document.querySelectorAll('#detail-items tbody tr')];
  const current = rows.findIndex((row) => row.classList.contains('selected'));
  const candidates = step > 0 ? rows.slice(current + 1) : rows.slice(0, Math.max(current, 0)).reverse();
  const next = candidates.find((row) => NOT_PASSED.includes(row.dataset.status));
  if (next) { selectItemRow(next); return; }
  const offset = state.itemsOffset + step * PAGE;
  if (offset < 0 || offset >= state.itemsTotal) return;
  state.itemsOffset = offset;
  await loadItems();
  const fresh = [...document.querySelectorAll('#detail-items tbody tr')]
    .filter((row) => NOT_PASSED.includes(row.dataset.status));
  if (fresh.length) selectItemRow(step > 0 ? fresh[0] : fresh[fresh.length - 1]);
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || !$('#view-detail').classList.contains('active')) return;
  if (event.target.closest('input, select, textarea, [contenteditable]')) return;
  if (!state.detailRun || state.detailRun.kind === 'dialog') return;
  if (state.review) { reviewKey(event); return; }
  const step = { j: 1, n: 1, k: -1, p: -1 }[event.key];
  if (!step) return;
  event.preventDefault();
  moveToFailed(step);
}

// ---- the comparison's side-by-side view of one case ------------------------------------------------------------
async function itemOfCase(runId, caseId) {
  const page = await api('/api/runs/' + runId + '/items?limit=1&case_id=' + encodeURIComponent(caseId));
  if (!page.items.length) return null;
  return api('/api/runs/' + runId + '/items/' + page.items[0].position);
}

function side(label, runId, item) {
  const column = el('div', null, 'side');
  const title = el('h4', label + ' · ' + shortId(runId) + ' ');
  if (item) title.append(el('span', item.status, 'badge ' + item.status));
  column.append(title);
  if (!item) {
    column.append(el('p', 'this run has no item for the case', 'muted'));
    return column;
  }
  if (item.error) column.append(el('p', item.error.type + ': ' + item.error.message, 'error-text'));
  column.append(el('h5', 'Checks'), ...checksView(item), el('h5', 'Conversation'), ...conversation(item));
  return column;
}

async function compareCase(a, b, caseId, row) {
  selectRow('#compare-changed', row);
  try {
    const [itemA, itemB] = await Promise.all([itemOfCase(a, caseId), itemOfCase(b, caseId)]);
    $('#compare-case-id').textContent = caseId;
    $('#compare-sides').replaceChildren(side('A', a, itemA), side('B', b, itemB));
    $('#compare-case').hidden = false;
    $('#compare-case').scrollIntoView({ block: 'start' });
  } catch (error) {
    showMessage('Could not load the case: ' + error.message);
  }
}

// ---- compare -------------------------------------------------------------------------------------------------
// A is the baseline and B is compared with it: deltas are B − A.
async function compare(a, b) {
  show('compare');
  const form = $('#compare-form');
  form.a.value = a;
  form.b.value = b;
  $('#compare-baseline').textContent = '';
  try {
    const result = await api('/api/compare?a=' + encodeURIComponent(a) + '&b=' + encodeURIComponent(b));
    const described = (run) => shortId(run.run_id) + ' (' + run.model_name + ', started ' + when(run.started_at) + ')';
    $('#compare-baseline').textContent = 'Baseline A: ' + described(result.a) + ' · compared B: ' + described(result.b);
    const deltaCell = (delta) => el('td', delta === null ? '–' : (delta > 0 ? '+' : '') + (delta * 100).toFixed(1),
      delta > 0 ? 'delta-up' : delta < 0 ? 'delta-down' : '');
    const rows = result.dimensions.map((row) => {
      const tr = el('tr');
      tr.append(el('td', row.dimension), el('td', percent(row.a)), el('td', percent(row.b)), deltaCell(row.delta));
      return tr;
    });
    const total = el('tr');
    total.append(el('td', 'TOTAL'), el('td', percent(result.total.a)), el('td', percent(result.total.b)),
      deltaCell(result.total.delta));
    $('#compare-dimensions tbody').replaceChildren(...rows, total);
    $('#compare-summary').textContent = result.common_cases + ' cases in common, ' + result.changed_count
      + ' changed verdict; only in A: ' + result.only_in_a + ', only in B: ' + result.only_in_b
      + pairedText(result.paired);
    $('#compare-case').hidden = true;
    $('#compare-changed tbody').replaceChildren(...result.changed.map((change) => {
      const tr = el('tr');
      tr.dataset.caseId = change.case_id;
      tr.append(el('td', change.case_id, 'wrap'), el('td', change.dimension), statusCell(change.a_status),
        statusCell(change.b_status));
      tr.addEventListener('click', () => compareCase(a, b, change.case_id, tr));
      return tr;
    }));
  } catch (error) {
    showMessage('Could not compare: ' + error.message);
  }
}

// ---- start-up ------------------------------------------------------------------------------------------------
function init() {
  // `assay serve` prints a URL ending in #token=...; keep the token in this browser and drop it from the address.
  const match = location.hash.match(/token=([^&]+)/);
  if (match) {
    localStorage.setItem('assay-token', decodeURIComponent(match[1]));
    history.replaceState(null, '', location.pathname);
  }
  state.token = localStorage.getItem('assay-token') || '';
  $('#token').value = state.token;
  $('#token').addEventListener('change', (event) => {
    state.token = event.target.value.trim();
    localStorage.setItem('assay-token', state.token);
  });
  document.querySelectorAll('.tab').forEach((tab) => tab.addEventListener('click', () => go(tab.dataset.view)));
  $('#case-set').addEventListener('change', fillSuite);
  $('#run-form').addEventListener('submit', startRun);
  $('#run-kind').addEventListener('change', showKind);
  $('#stop').addEventListener('click', stopRun);
  $('#history-filters').addEventListener('submit', (event) => { event.preventDefault(); state.historyOffset = 0; loadHistory(); });
  $('#history-prev').addEventListener('click', () => { state.historyOffset = Math.max(0, state.historyOffset - PAGE); loadHistory(); });
  $('#history-next').addEventListener('click', () => { state.historyOffset += PAGE; loadHistory(); });
  document.querySelectorAll('.items-prev').forEach((button) => button.addEventListener('click', () => {
    state.itemsOffset = Math.max(0, state.itemsOffset - PAGE);
    loadItems();
  }));
  document.querySelectorAll('.items-next').forEach((button) => button.addEventListener('click', () => {
    state.itemsOffset += PAGE;
    loadItems();
  }));
  const filters = $('#item-filters');
  const refilter = () => { state.itemsOffset = 0; loadItems(); };
  let typing = null;
  filters.addEventListener('submit', (event) => { event.preventDefault(); refilter(); });
  filters.addEventListener('change', refilter);
  filters.q.addEventListener('input', () => { clearTimeout(typing); typing = setTimeout(refilter, 250); });
  document.addEventListener('keydown', onKey);
  $('#review-start').addEventListener('click', () => state.detailRunId && startReview()
    .catch((error) => showMessage('Could not start the review: ' + error.message)));
  $('#review-note').addEventListener('keydown', (event) => { if (event.key === 'Enter') { event.preventDefault(); event.target.blur(); } });
  $('#detail-resume').addEventListener('click', () => state.detailRunId && resumeRun(state.detailRunId));
  $('#detail-cancel').addEventListener('click', () => state.detailRunId && cancelInterrupted(state.detailRunId));
  $('#detail-delete').addEventListener('click', () => state.detailRunId && deleteRun(state.detailRunId).then(() => go('history')));
  // Whatever order they were ticked in, the older run is the baseline, so a newer run's gains read as gains (the
  // history lists the newest first, which breaks ties of the start time).
  $('#compare-selected').addEventListener('click', () => {
    const picked = [...document.querySelectorAll('#history-table .pick:checked')].map((box) => box.closest('tr').dataset)
      .reverse().sort((x, y) => Date.parse(x.startedAt) - Date.parse(y.startedAt));
    if (picked.length !== 2) { showMessage('Tick exactly two runs to compare.'); return; }
    showMessage('');
    go('compare', picked[0].runId, picked[1].runId);
  });
  $('#compare-form').addEventListener('submit', (event) => {
    event.preventDefault();
    go('compare', event.target.a.value.trim(), event.target.b.value.trim());
  });
  $('#compare-swap').addEventListener('click', () => {
    const form = $('#compare-form');
    if (form.a.value.trim() && form.b.value.trim()) go('compare', form.b.value.trim(), form.a.value.trim());
  });
  window.addEventListener('hashchange', route);
  route();
  loadForm().catch((error) => showMessage('Could not load the case sets: ' + error.message));
}

document.addEventListener('DOMContentLoaded', init);
