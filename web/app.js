// The practice page: the problem list, a statement, the editor on the
// workspace file, and Run, Try, History and Solution, all through the API
// of `judge serve` (docs/web.md). Text from the judge or the learner's
// code is put in the page as text, never as HTML; only the statement's
// markdown is rendered, by markdown-it with raw HTML off.
'use strict';

// The token: in the page when it was opened with the URL `judge serve`
// printed, and kept in this origin's storage for reloads and other tabs.
// Storage is this port's alone, where a cookie would go to every port of
// 127.0.0.1; the page's cookie holds another key, for its files only.
const givenToken = document.querySelector('meta[name="judge-token"]').content;
if (givenToken) localStorage.setItem('judge-token', givenToken);
const token = givenToken || localStorage.getItem('judge-token') || '';
// The address bar need not show it.
if (location.search.includes('token=')) history.replaceState(null, '', location.pathname + location.hash);

const $ = (id) => document.getElementById(id);
const state = {
  slug: null,
  problem: null,
  version: '',          // the workspace file's version the editor holds
  cleanGeneration: 0,   // the editor's generation at the last load or save
  started: false,
  diskVersion: '',      // a newer version seen on disk while the editor had changes
  runAbort: null,
  markers: [],
};

// ---- requests ----
async function api(method, path, body) {
  const options = { method, headers: { 'X-Judge-Token': token } };
  if (body !== undefined) {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({}));
  $('connection').textContent = '';
  return { status: response.status, data };
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// ---- the editor: CodeMirror from libjs-codemirror, else a text area ----
const editor = (() => {
  const host = $('editor');
  if (window.CodeMirror) {
    const cm = CodeMirror(host, {
      mode: 'text/x-c++src',
      lineNumbers: true,
      matchBrackets: true,
      autoCloseBrackets: true,
      styleActiveLine: true,
      indentUnit: 2,
      tabSize: 2,
      gutters: ['judge-markers', 'CodeMirror-linenumbers'],
      extraKeys: {
        'Ctrl-S': () => save(),
        'Cmd-S': () => save(),
        'Ctrl-Enter': () => run(),
        'Cmd-Enter': () => run(),
      },
    });
    return {
      get: () => cm.getValue(),
      set: (text) => { cm.setValue(text); cm.clearHistory(); },
      clean: () => cm.changeGeneration(),
      isClean: (generation) => cm.isClean(generation),
      readOnly: (on) => cm.setOption('readOnly', on),
      onChange: (callback) => cm.on('changes', callback),
      cm,
    };
  }
  const area = element('textarea', 'plain-editor');
  area.spellcheck = false;
  host.appendChild(area);
  let saved = '';
  return {
    get: () => area.value,
    set: (text) => { area.value = text; },
    clean: () => { saved = area.value; return 0; },
    isClean: () => area.value === saved,
    readOnly: (on) => { area.readOnly = on; },
    onChange: (callback) => area.addEventListener('input', callback),
    cm: null,
  };
})();
window.judgeEditor = editor;  // for the browser test and the curious

editor.onChange(() => updateFileState());

// ---- markers: compile errors and crashes on the learner's own lines ----
function clearMarkers() {
  const cm = editor.cm;
  if (!cm) return;
  for (const mark of state.markers) mark.clear();
  state.markers = [];
  cm.clearGutter('judge-markers');
}

function showMarkers(markers) {
  clearMarkers();
  const cm = editor.cm;
  if (!cm) return;
  const seen = new Set();
  for (const marker of markers) {
    const line = marker.line - 1;
    if (line < 0 || line >= cm.lineCount() || seen.has(line)) continue;
    seen.add(line);
    const severity = marker.severity === 'warning' ? 'warning' : 'error';
    const gutter = element('span', `judge-marker judge-marker-${severity}`, severity === 'error' ? '●' : '▲');
    gutter.title = marker.message;
    cm.setGutterMarker(line, 'judge-markers', gutter);
    cm.addLineClass(line, 'background', `judge-line-${severity}`);
    const widget = cm.addLineWidget(line, element('div', `judge-line-message judge-line-message-${severity}`,
                                                  marker.message));
    state.markers.push({
      clear: () => { widget.clear(); cm.removeLineClass(line, 'background', `judge-line-${severity}`); },
    });
  }
}

// ---- the problem list ----
async function loadProblems() {
  const { status, data } = await api('GET', '/api/problems');
  if (status !== 200) { $('broken').textContent = data.error || `the list failed (${status})`; return; }
  const list = $('problem-list');
  list.replaceChildren();
  for (const problem of data.problems) {
    const item = element('li');
    item.dataset.slug = problem.problem;
    if (problem.problem === state.slug) item.classList.add('current');
    const link = element('a', '', problem.title);
    link.href = `#/problem/${encodeURIComponent(problem.problem)}`;
    const status = element('span', `status status-${problem.status.replace(' ', '-')}`, problem.status);
    const attempts = element('span', 'attempts muted',
                             problem.attempts ? `${problem.attempts} attempt${problem.attempts === 1 ? '' : 's'}` : '');
    item.append(link, status, attempts);
    list.appendChild(item);
  }
  $('broken').textContent = data.broken.map((b) => `${b.problem}: ${b.error}`).join('\n');
}

// ---- a problem ----
// A statement is plain text the terminal prints as it is (docs/problem-format.md):
// a block indented two spaces past its paragraph (a declaration, a formula,
// a worked example's table) is code, and a line alone that ends in no
// punctuation is a heading. Markdown needs four spaces and a '#' for
// those, so they are made explicit here: a fenced block at the indentation
// of the list item it belongs to, and a level-3 heading.
function statementMarkdown(text) {
  const blocks = text.split(/\n\s*\n/);
  const indentOf = (line) => line.length - line.trimStart().length;
  let context = 0;  // where the text of the current list item starts; 0 outside a list
  const out = [];
  for (const block of blocks) {
    const lines = block.split('\n').filter((line) => line.trim() !== '');
    if (lines.length === 0) continue;
    const indent = Math.min(...lines.map(indentOf));
    const item = lines[0].match(/^(\s*)(?:[-*+]|\d+[.)])\s+/);
    if (item) {
      context = item[0].length;
      out.push(block);
    } else if (indent >= context + 2) {
      const pad = ' '.repeat(context);
      out.push([`${pad}\`\`\``, ...lines.map((line) => pad + line.slice(indent)), `${pad}\`\`\``].join('\n'));
    } else {
      if (indent < context) context = indent;
      const heading = lines.length === 1 && indent === 0 && /^[A-Z][^.:;,!?]{0,60}[A-Za-z0-9)]$/.test(lines[0]);
      out.push(heading ? `### ${lines[0]}` : block);
    }
  }
  return out.join('\n\n');
}

function renderStatement(target, markdown) {
  if (window.markdownit) {
    // Raw HTML off: the statement is shown, never run.
    target.innerHTML = window.markdownit({ html: false, linkify: false }).render(statementMarkdown(markdown));
  } else {
    target.replaceChildren(element('pre', 'plain-statement', markdown));
  }
  if (window.renderMathInElement) {
    renderMathInElement(target, {
      delimiters: [
        { left: '$$', right: '$$', display: true },
        { left: '\\[', right: '\\]', display: true },
        { left: '\\(', right: '\\)', display: false },
        { left: '$', right: '$', display: false },
      ],
      throwOnError: false,
    });
  }
}

// A value as the judge's text report writes it: lists with ", ".
function valueText(value) {
  const spaced = (v) => (Array.isArray(v) ? `[${v.map(spaced).join(', ')}]`
                         : v && typeof v === 'object'
                           ? `{${Object.entries(v).map(([k, x]) => `${k}: ${spaced(x)}`).join(', ')}}`
                           : JSON.stringify(v));
  const text = spaced(value);
  return text.length > 400 ? `${text.slice(0, 400)}… (${text.length} characters)` : text;
}

function inputLines(input) {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return valueText(input);
  return Object.entries(input).map(([name, value]) => `${name} = ${valueText(value)}`).join('\n');
}

function renderSamples(samples) {
  const host = $('samples');
  host.replaceChildren();
  for (const sample of samples) {
    const box = element('div', 'sample');
    box.appendChild(element('div', 'sample-name', `${sample.name} (${sample.op})`));
    if (sample.note) box.appendChild(element('div', 'muted', sample.note));
    box.appendChild(element('pre', '', inputLines(sample.input)));
    let expect = `judged by: ${sample.check}`;
    if (sample.throws) expect = `throws ${sample.throws}`;
    else if (sample.expect !== undefined) expect = `expect ${valueText(sample.expect)}`;
    box.appendChild(element('div', 'sample-expect', expect));
    host.appendChild(box);
  }
}

async function openProblem(slug) {
  if (state.runAbort) state.runAbort.abort();
  const { status, data } = await api('GET', `/api/problems/${encodeURIComponent(slug)}`);
  if (status !== 200) { showError(data.error || `cannot open ${slug}`); return; }
  state.slug = slug;
  state.problem = data;
  $('welcome').hidden = true;
  $('problem').hidden = false;
  $('title').textContent = data.title;
  $('meta').textContent = `${data.problem} · ${data.status}` +
                          (data.attempts ? ` · ${data.attempts} attempt${data.attempts === 1 ? '' : 's'}` : '');
  renderStatement($('statement'), data.statement);
  $('signature').textContent = data.signature;
  $('limits').textContent = `Time ${data.time_ms} ms per request · memory ${data.memory_mb} MiB · tolerance ` +
                            `atol ${data.tolerance.atol} or rtol ${data.tolerance.rtol} · ${data.hidden_cases} hidden cases`;
  renderSamples(data.samples);
  renderTryOps(data.try_ops);
  clearResults();
  for (const item of document.querySelectorAll('#problem-list li'))
    item.classList.toggle('current', item.dataset.slug === slug);
  await loadWorkspace(true);
  showTab('results');
}

// ---- the workspace file ----
function updateFileState() {
  const file = state.problem ? `workspace file: ${state.fileName || ''}` : '';
  const dirty = state.started && !editor.isClean(state.cleanGeneration);
  $('file-state').textContent = state.started ? `${file}${dirty ? ' · modified' : ' · saved'}` : 'not started';
}

function takeFile(data) {
  state.started = data.exists;
  state.fileName = data.file;
  state.version = data.version;
  $('start-button').hidden = data.exists;
  $('save-button').disabled = !data.exists;
  $('run-button').disabled = !data.exists;
  $('try-button').disabled = !data.exists;
  editor.readOnly(!data.exists);
  editor.set(data.exists ? data.content
                         : `// Not started yet. Start copies the stub to ${data.file}\n// (the same as: judge start ${state.slug}).\n`);
  state.cleanGeneration = editor.clean();
  $('disk-changed').hidden = true;
  updateFileState();
}

async function loadWorkspace() {
  const { status, data } = await api('GET', `/api/workspace/${encodeURIComponent(state.slug)}`);
  if (status !== 200) { showError(data.error); return; }
  takeFile(data);
}

async function start() {
  const { status, data } = await api('PUT', `/api/workspace/${encodeURIComponent(state.slug)}`, {});
  if (status !== 200) { showError(data.error); return; }
  takeFile(data);
  loadProblems();
}

async function save(force) {
  if (!state.started) return false;
  const body = { content: editor.get(), base_version: state.version };
  if (force) body.force = true;
  const { status, data } = await api('PUT', `/api/workspace/${encodeURIComponent(state.slug)}`, body);
  if (status === 409) {
    if (confirm(`${data.error}. Overwrite it with the editor's text?`)) return save(true);
    return false;
  }
  if (status !== 200) { showError(data.error); return false; }
  state.version = data.version;
  state.cleanGeneration = editor.clean();
  $('disk-changed').hidden = true;
  updateFileState();
  return true;
}

// Another editor's save appears here: loaded at once when the page has no
// changes of its own, offered otherwise.
async function watchFile() {
  if (!state.slug || !state.problem || document.hidden) return;
  const slug = state.slug;
  const { status, data } = await api('GET', `/api/workspace/${encodeURIComponent(slug)}`).catch(() => {
    $('connection').textContent = 'the judge is not answering (stopped?)';
    return { status: 0 };
  });
  if (status !== 200 || slug !== state.slug) return;
  if (data.exists === state.started && data.version === state.version) return;
  if (!state.started || editor.isClean(state.cleanGeneration)) {
    takeFile(data);
    loadProblems();
    return;
  }
  state.diskFile = data;
  $('disk-changed').hidden = false;
}

// ---- results ----
function clearResults() {
  $('run-status').textContent = '';
  $('verdict').textContent = '';
  $('verdict').className = '';
  $('compile-message').hidden = true;
  $('hints').replaceChildren();
  $('shrunk').replaceChildren();
  $('cases').replaceChildren();
  clearMarkers();
}

function showError(message) {
  showTab('results');
  $('verdict').textContent = 'error';
  $('verdict').className = 'verdict-error';
  $('run-status').textContent = message || 'the request failed';
}

function caseItem(test) {
  const passed = test.verdict === 'accepted';
  const item = element('li', `case ${passed ? 'passed' : 'failed'}`);
  item.dataset.name = test.name;
  const head = element('div', 'case-head');
  head.append(element('span', 'case-mark', passed ? 'PASS' : 'FAIL'),
              element('span', 'case-name', `${test.name}${test.hidden ? ' (hidden)' : ''}`),
              element('span', 'case-time muted', `${test.time_ms} ms`));
  item.appendChild(head);
  if (passed) return item;
  item.appendChild(element('div', 'case-message', `${test.verdict}: ${test.message}`));
  if (test.note) item.appendChild(element('div', 'case-note muted', test.note));
  if (test.input !== undefined) {
    item.appendChild(element('div', 'label', 'input'));
    item.appendChild(element('pre', 'case-input', inputLines(test.input)));
  }
  if (test.details) item.appendChild(detailsBlock(test.details));
  if (test.hint) item.appendChild(element('div', 'case-hint', `hint: ${test.hint}`));
  return item;
}

// The parts of a value's text between brackets, commas and spaces: what
// the expected and got lines are compared by.
function valueParts(text) {
  return text.split(/([\[\]{},\s]+)/);
}

// A checker's details, with the numbers where "got" differs from
// "expected" (compared part by part, in order) marked on both lines.
function detailsBlock(details) {
  const block = element('pre', 'case-details');
  const lines = details.split('\n');
  const labelled = (prefix) => lines.findIndex((line) => line.startsWith(prefix));
  const want = labelled('expected:'), got = labelled('got:');
  if (want < 0 || got < 0) { block.textContent = details; return block; }
  const valueOf = (line) => line.replace(/^[a-z]+:\s*/, '');
  const wantParts = valueParts(valueOf(lines[want])), gotParts = valueParts(valueOf(lines[got]));
  lines.forEach((line, i) => {
    if (i > 0) block.append('\n');
    if (i !== want && i !== got) { block.append(line); return; }
    const label = line.match(/^[a-z]+:\s*/)[0];
    const mine = i === want ? wantParts : gotParts, other = i === want ? gotParts : wantParts;
    block.append(label);
    mine.forEach((part, k) => {
      const separator = k % 2 === 1;
      if (separator || part === other[k]) block.append(part);
      else block.appendChild(element('mark', '', part));
    });
  });
  return block;
}

// A failing input made small after judging (`judge run` prints the same).
function shrunkItem(example) {
  const box = element('div', 'shrunk');
  if (!example.shrunk) {
    box.appendChild(element('div', 'muted', `${example.reason} (${example.from_case})`));  // "not shrunk: WHY"
    return box;
  }
  box.appendChild(element('div', 'label', `shrunk from ${example.from_case}, ${example.sizes}`));
  box.appendChild(element('pre', 'case-input', inputLines(example.input)));
  box.appendChild(element('div', 'case-message', example.message));
  if (example.details) box.appendChild(detailsBlock(example.details));
  return box;
}

function showResult(result) {
  $('verdict').textContent = result.verdict;
  $('verdict').className = `verdict-${result.verdict === 'accepted' ? 'accepted' : 'failed'}`;
  const passed = result.tests.filter((t) => t.verdict === 'accepted').length;
  $('run-status').textContent = result.verdict === 'compile_error' ? 'your file does not compile'
                                : `${passed}/${result.tests.length} cases passed`;
  const message = $('compile-message');
  message.hidden = !result.message;
  message.textContent = result.message || '';
  const hints = $('hints');
  hints.replaceChildren();
  for (const hint of result.hints || [])
    hints.appendChild(element('div', 'hint', `Known mistake: ${hint.mistake} (cases: ${hint.cases.join(', ')})`));
  // What this machine's sandbox lacked for the run (docs/sandbox.md).
  if (result.sandbox_note) hints.appendChild(element('div', 'sandbox-note', `Note: ${result.sandbox_note}`));
  const shrunk = $('shrunk');
  shrunk.replaceChildren();
  for (const example of result.shrunk || []) shrunk.appendChild(shrunkItem(example));
  // Failures first, in case order, then the cases that passed. A failure
  // with the verdict and message of an earlier one is named under it
  // instead of shown again (a stub fails every case alike).
  const cases = $('cases');
  cases.replaceChildren();
  const first = new Map();
  for (const test of result.tests.filter((t) => t.verdict !== 'accepted')) {
    const key = `${test.verdict}\n${test.message}`;
    if (first.has(key)) { first.get(key).repeats.push(test.name); continue; }
    const item = caseItem(test);
    first.set(key, { item, repeats: [] });
    cases.appendChild(item);
  }
  for (const { item, repeats } of first.values())
    if (repeats.length)
      item.appendChild(element('div', 'case-repeats muted',
                               `and ${repeats.length} more case${repeats.length === 1 ? '' : 's'} failing ` +
                               `the same way: ${repeats.join(', ')}`));
  for (const test of result.tests.filter((t) => t.verdict === 'accepted')) cases.appendChild(caseItem(test));
}

// Reads server-sent events from a POST's streamed body.
async function readEvents(response, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      let data = '';
      for (const line of frame.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      onEvent(event, data ? JSON.parse(data) : {});
    }
  }
}

async function run() {
  if (!state.started) return;
  if (!editor.isClean(state.cleanGeneration) && !(await save())) return;
  if (state.runAbort) state.runAbort.abort();
  const abort = new AbortController();
  state.runAbort = abort;
  showTab('results');
  clearResults();
  $('run-button').disabled = true;
  $('run-status').textContent = 'starting';
  let total = 0;
  let finished = 0;
  try {
    const response = await fetch(`/api/run/${encodeURIComponent(state.slug)}`, {
      method: 'POST', headers: { 'X-Judge-Token': token }, signal: abort.signal,
    });
    if (!response.ok) {
      const data = await response.json().catch(() => ({}));
      showError(data.error || `run failed (${response.status})`);
      return;
    }
    await readEvents(response, (event, data) => {
      if (abort !== state.runAbort) return;
      if (event === 'begin') {
        total = data.cases;
        $('run-status').textContent = `judging ${data.solution}`;
      } else if (event === 'progress') {
        $('run-status').textContent = `${data.what}…`;
      } else if (event === 'case') {
        finished += 1;
        $('run-status').textContent = `case ${finished}/${total}`;
        $('cases').appendChild(caseItem(data));
      } else if (event === 'result') {
        showResult(data);
      } else if (event === 'done') {
        showMarkers(data.markers);
        $('meta').textContent = `${state.slug} · ${data.status} · ${data.attempts} attempt${data.attempts === 1 ? '' : 's'}` +
                                (data.not_recorded ? ` · this attempt was not recorded: ${data.not_recorded}` : '');
        loadProblems();
      } else if (event === 'error') {
        showError(data.message);
      }
    });
  } catch (error) {
    if (error.name !== 'AbortError') showError(`the run stopped: ${error.message}`);
  } finally {
    if (abort === state.runAbort) {
      state.runAbort = null;
      $('run-button').disabled = !state.started;
    }
  }
}

// ---- try, history, solution ----
function renderTryOps(ops) {
  const select = $('try-op');
  select.replaceChildren();
  for (const op of ops) {
    const option = element('option', '', op.op);
    option.value = op.op;
    select.appendChild(option);
  }
  const choose = () => {
    const op = ops.find((o) => o.op === select.value);
    $('try-inputs').textContent = op ? `takes ${op.inputs}; ${op.mode}` : '';
    $('try-input').value = op ? op.example : '';
  };
  select.onchange = choose;
  choose();
  $('try-summary').textContent = '';
  $('try-output').textContent = '';
}

async function tryInput() {
  if (!editor.isClean(state.cleanGeneration) && !(await save())) return;
  $('try-summary').textContent = 'running…';
  $('try-output').textContent = '';
  const { status, data } = await api('POST', `/api/try/${encodeURIComponent(state.slug)}`,
                                     { op: $('try-op').value, input: $('try-input').value });
  if (status !== 200) { $('try-summary').textContent = data.error || `try failed (${status})`; return; }
  $('try-summary').textContent = data.compiled ? `${data.agree ? 'agree' : 'differ'}: ${data.difference}`
                                               : 'your file does not compile';
  $('try-summary').className = data.agree ? 'agree' : 'differ';
  $('try-output').textContent = data.text;
  showMarkers(data.markers || []);
}

async function loadHistory() {
  const { status, data } = await api('GET', `/api/history/${encodeURIComponent(state.slug)}`);
  const body = $('history').querySelector('tbody');
  body.replaceChildren();
  if (status !== 200) return;
  data.attempts.forEach((attempt, index) => {
    const row = element('tr');
    const cases = attempt.cases ? `${attempt.passed}/${attempt.cases}` : '-';
    for (const cell of [index + 1, attempt.time.replace('T', ' ').replace('Z', ''), attempt.verdict, cases,
                        attempt.seconds.toFixed(2)])
      row.appendChild(element('td', '', String(cell)));
    body.appendChild(row);
  });
  if (!data.attempts.length) {
    const row = element('tr');
    const cell = element('td', 'muted', 'nothing judged yet');
    cell.colSpan = 5;
    row.appendChild(cell);
    body.appendChild(row);
  }
}

async function loadSolution(force) {
  const { status, data } = await api('GET', `/api/solution/${encodeURIComponent(state.slug)}${force ? '?force=1' : ''}`);
  $('solution-force').hidden = status !== 403;
  $('solution-reference').hidden = status !== 200;
  $('solution-explanation').replaceChildren();
  if (status !== 200) { $('solution-note').textContent = data.error; return; }
  $('solution-note').textContent = data.spoiler ? 'Spoiler: not solved here yet. The reference solution:'
                                                : 'Solved. The reference solution:';
  $('solution-reference').textContent = data.reference;
  if (data.explanation) renderStatement($('solution-explanation'), data.explanation);
  else $('solution-explanation').textContent = 'No explanation has been written for this problem.';
}

function showTab(name) {
  for (const button of document.querySelectorAll('.tabs button'))
    button.classList.toggle('active', button.dataset.tab === name);
  for (const tab of document.querySelectorAll('.tab')) tab.hidden = tab.id !== `tab-${name}`;
  if (name === 'history') loadHistory();
  if (name === 'solution') loadSolution(false);
}

// ---- wiring ----
function route() {
  const match = location.hash.match(/^#\/problem\/([^/]+)$/);
  if (match) openProblem(decodeURIComponent(match[1]));
}

$('start-button').onclick = start;
$('save-button').onclick = () => save();
$('run-button').onclick = run;
$('try-button').onclick = tryInput;
$('solution-force').onclick = () => loadSolution(true);
$('load-disk').onclick = () => { if (state.diskFile) takeFile(state.diskFile); };
$('keep-mine').onclick = () => { $('disk-changed').hidden = true; state.version = state.diskFile.version; };
for (const button of document.querySelectorAll('.tabs button')) button.onclick = () => showTab(button.dataset.tab);
window.addEventListener('hashchange', route);
loadProblems().then(route);
setInterval(watchFile, 1500);
