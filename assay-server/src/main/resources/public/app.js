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
    throw new Error((problem.detail || response.statusText) + (problem.field ? ' [' + problem.field + ']' : ''));
  }
  return body;
}

function withToken(path) {
  return state.token ? path + (path.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(state.token) : path;
}

const percent = (score) => score === null || score === undefined ? '–' : (score * 100).toFixed(1);
const shortId = (id) => id ? id.slice(0, 8) : '';
const when = (instant) => instant ? new Date(instant).toLocaleString() : '';

// ---- views ---------------------------------------------------------------------------------------------------
function show(view) {
  document.querySelectorAll('.view').forEach((node) => node.classList.toggle('active', node.id === 'view-' + view));
  document.querySelectorAll('.tab').forEach((node) => node.classList.toggle('active', node.dataset.view === view));
  if (view === 'history') loadHistory();
}

// ---- charts --------------------------------------------------------------------------------------------------
function drawScores(prefix, dimensionScores) {
  if (typeof Chart === 'undefined') return;
  const labels = Object.keys(dimensionScores || {});
  const values = labels.map((name) => dimensionScores[name] * 100);
  for (const kind of ['bar', 'radar']) {
    const id = prefix + '-' + kind;
    const existing = state.charts[id];
    if (existing) {
      existing.data.labels = labels;
      existing.data.datasets[0].data = values;
      existing.update('none');
      continue;
    }
    const scales = kind === 'bar' ? { y: { min: 0, max: 100 } } : { r: { min: 0, max: 100, ticks: { stepSize: 25 } } };
    state.charts[id] = new Chart(document.getElementById(id), {
      type: kind,
      data: { labels, datasets: [{ label: 'score', data: values, backgroundColor: 'rgba(47,111,235,0.35)',
        borderColor: '#2f6feb', borderWidth: 1 }] },
      options: { responsive: true, maintainAspectRatio: false, animation: false, scales,
        plugins: { legend: { display: false } } },
    });
  }
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
  const [suites, info] = await Promise.all([api('/api/suites'), api('/api/info')]);
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

function formBody() {
  const form = new FormData($('#run-form'));
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
    follow(started.run_id);
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
  if (progress.current_case_id) $('#current-case').textContent = progress.current_case_id + ' – ' + progress.current_prompt;
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

function follow(runId) {
  if (state.source) state.source.close();
  state.runId = runId;
  $('#run-id').textContent = runId;
  $('#start').disabled = true;
  $('#stop').disabled = false;
  const source = new EventSource(withToken('/api/runs/' + runId + '/events'));
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
      const pick = el('input');
      pick.type = 'checkbox';
      pick.className = 'pick';
      pick.addEventListener('click', (event) => event.stopPropagation());
      const cell = el('td');
      cell.append(pick);
      const status = el('td');
      status.append(el('span', run.status, 'badge ' + run.status));
      const remove = el('button', 'Delete', 'danger');
      remove.addEventListener('click', (event) => { event.stopPropagation(); deleteRun(run.run_id); });
      const actions = el('td');
      actions.append(remove);
      row.append(cell, el('td', shortId(run.run_id)), el('td', run.kind), el('td', run.model_name), status, el('td', percent(run.total_score)),
        el('td', run.counts.total), el('td', when(run.started_at)), actions);
      row.addEventListener('click', () => openDetail(run.run_id));
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
    const c = run.counts;
    const noun = run.kind === 'dialog' ? ' dialogs: ok ' : ' items: passed ';
    $('#detail-summary').textContent = run.kind + ' · ' + run.model_name + ' · ' + run.case_set + ' · total '
      + percent(run.total_score) + ' · ' + c.total + noun + c.passed + ', failed ' + c.failed + ', partial '
      + c.partial + ', skipped ' + c.skipped + ', errors ' + c.error + ', cancelled ' + c.cancelled + ' · started '
      + when(run.started_at);
    document.querySelectorAll('.exports a').forEach((link) => {
      link.href = withToken('/api/runs/' + runId + '/report?format=' + link.dataset.format);
      link.target = '_blank';
    });
    drawScores('detail', run.dimension_scores);
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
    }
    renderItems(detail);
  } catch (error) {
    showMessage('Could not load the run: ' + error.message);
  }
}

async function loadItems() {
  try {
    renderItems(await api('/api/runs/' + state.detailRunId + '/items?offset=' + state.itemsOffset + '&limit=' + PAGE));
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
  const rows = items.map((item, index) => {
    const row = el('tr');
    row.append(el('td', state.itemsOffset + index + 1), el('td', item.case_id, 'wrap'), el('td', item.dimension),
      statusCell(item.status), el('td', item.score.toFixed(2)));
    row.addEventListener('click', () => {
      selectRow('#detail-items', row);
      openItem(runId, state.itemsOffset + index);
    });
    return row;
  });
  $('#detail-items tbody').replaceChildren(...rows);
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

async function openItem(runId, position) {
  try {
    const item = await api('/api/runs/' + runId + '/items/' + position);
    $('#item-case-id').textContent = item.case_id;
    setStatus($('#item-status'), item.status);
    $('#item-prompt').textContent = item.prompt;
    $('#item-final-answer').textContent = item.final_answer;
    $('#item-tool-calls').textContent = JSON.stringify(item.tool_calls, null, 2);
    $('#item-checker').textContent = JSON.stringify(item.checker_detail, null, 2);
    $('#item-error').textContent = item.error ? item.error.type + ': ' + item.error.message : '–';
    const events = (Array.isArray(item.transcript) ? item.transcript : []).map((entry) => {
      const block = el('div', null, 'event');
      block.append(el('b', entry.type || 'event'), el('pre', JSON.stringify(entry, null, 2)));
      return block;
    });
    $('#item-transcript').replaceChildren(...events);
  } catch (error) {
    showMessage('Could not load the item: ' + error.message);
  }
}

// ---- compare -------------------------------------------------------------------------------------------------
async function compare(a, b) {
  show('compare');
  const form = $('#compare-form');
  form.a.value = a;
  form.b.value = b;
  try {
    const result = await api('/api/compare?a=' + encodeURIComponent(a) + '&b=' + encodeURIComponent(b));
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
    $('#compare-changed tbody').replaceChildren(...result.changed.map((change) => {
      const tr = el('tr');
      tr.append(el('td', change.case_id, 'wrap'), el('td', change.dimension), el('td', change.a_status),
        el('td', change.b_status));
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
  document.querySelectorAll('.tab').forEach((tab) => tab.addEventListener('click', () => show(tab.dataset.view)));
  $('#case-set').addEventListener('change', fillSuite);
  $('#run-form').addEventListener('submit', startRun);
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
  $('#detail-delete').addEventListener('click', () => state.detailRunId && deleteRun(state.detailRunId).then(() => show('history')));
  $('#compare-selected').addEventListener('click', () => {
    const picked = [...document.querySelectorAll('#history-table .pick:checked')].map((box) => box.closest('tr').dataset.runId);
    if (picked.length !== 2) { showMessage('Tick exactly two runs to compare.'); return; }
    showMessage('');
    compare(picked[0], picked[1]);
  });
  $('#compare-form').addEventListener('submit', (event) => {
    event.preventDefault();
    compare(event.target.a.value.trim(), event.target.b.value.trim());
  });
  loadForm().catch((error) => showMessage('Could not load the case sets: ' + error.message));
}

document.addEventListener('DOMContentLoaded', init);
