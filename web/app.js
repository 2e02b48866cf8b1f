// The practice page: the course as its landing view, then a problem's
// statement beside the editor on the workspace file over Run's results,
// Try, History and Solution, with splitters, settings and keyboard
// shortcuts of its own, and the Lab; all through the API of `judge serve`
// (docs/web.md). Text from the judge or the learner's
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
// Save and Run keys are the page's (see onShortcut), so that they work
// the same in every keymap and outside the editor.
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
      screenReaderLabel: 'Your solution',
      // The text itself takes the focus (not a hidden text area), so a
      // screen reader reads the code and the scrolled area is keyboard-reachable.
      inputStyle: 'contenteditable',
    });
    // The editor fills its pane: sized to it whenever the pane changes
    // (a splitter moved, the window resized, the font changed).
    new ResizeObserver(() => {
      cm.setSize(host.clientWidth, host.clientHeight || null);
      cm.refresh();
    }).observe(host);
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

// ---- settings: keymap and font size, remembered in this origin's storage ----
const KEYMAPS = ['default', 'vim', 'emacs'];

// A keymap other than the default is a script of libjs-codemirror, loaded
// the first time it is chosen.
function loadKeymap(name) {
  if (name === 'default' || (window.CodeMirror && CodeMirror.keyMap[name])) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `/vendor/codemirror/keymap/${name}.js`;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`the ${name} keymap did not load`));
    document.head.appendChild(script);
  });
}

async function chooseKeymap(name) {
  if (!KEYMAPS.includes(name)) name = 'default';
  $('keymap').value = name;
  localStorage.setItem('judge-keymap', name);
  if (!editor.cm) return;
  try {
    await loadKeymap(name);
    editor.cm.setOption('keyMap', name);
  } catch (error) {
    $('connection').textContent = error.message;
  }
}

// One of the sizes the control offers; anything else (an old value in
// storage) is the default, 13 px.
function chooseFontSize(size) {
  const offered = [...$('font-size').options].map((option) => Number(option.value));
  const pixels = offered.includes(Number(size)) ? Number(size) : 13;
  $('font-size').value = String(pixels);
  localStorage.setItem('judge-font-size', String(pixels));
  document.documentElement.style.setProperty('--editor-font', `${pixels}px`);
  if (editor.cm) editor.cm.refresh();
}

// ---- splitters: dragged with a pointer or moved with the arrow keys ----
// Each sets a percentage in a custom property of the page's grid, kept
// in storage so the layout comes back as the learner left it.
function makeSplitter(handle, { property, storageKey, min, max, initial, horizontal, containerOf }) {
  const apply = (percent) => {
    const value = Math.min(max, Math.max(min, Math.round(percent)));
    document.documentElement.style.setProperty(property, `${value}%`);
    handle.setAttribute('aria-valuenow', String(value));
    return value;
  };
  let current = apply(Number(localStorage.getItem(storageKey)) || initial);
  const keep = () => localStorage.setItem(storageKey, String(current));

  handle.addEventListener('pointerdown', (event) => {
    event.preventDefault();
    handle.setPointerCapture(event.pointerId);
    handle.classList.add('dragging');
  });
  handle.addEventListener('pointermove', (event) => {
    if (!handle.hasPointerCapture(event.pointerId)) return;
    const box = containerOf().getBoundingClientRect();
    current = apply(horizontal ? (event.clientY - box.top) / box.height * 100
                               : (event.clientX - box.left) / box.width * 100);
  });
  const release = (event) => {
    if (!handle.hasPointerCapture(event.pointerId)) return;
    handle.releasePointerCapture(event.pointerId);
    handle.classList.remove('dragging');
    keep();
  };
  handle.addEventListener('pointerup', release);
  handle.addEventListener('pointercancel', release);
  handle.addEventListener('keydown', (event) => {
    const step = event.shiftKey ? 10 : 2;
    const moves = horizontal ? { ArrowUp: -step, ArrowDown: step } : { ArrowLeft: -step, ArrowRight: step };
    if (event.key in moves) current = apply(current + moves[event.key]);
    else if (event.key === 'Home') current = apply(min);
    else if (event.key === 'End') current = apply(max);
    else return;
    event.preventDefault();
    keep();
  });
}

makeSplitter($('split-columns'), { property: '--split', storageKey: 'judge-split-columns', min: 20, max: 70,
                                   initial: 40, horizontal: false, containerOf: () => $('problem') });
makeSplitter($('split-rows'), { property: '--editor-share', storageKey: 'judge-split-rows', min: 15, max: 85,
                                initial: 55, horizontal: true, containerOf: () => $('work-pane') });

// ---- the problem list: shown beside the page, folded away on a phone ----
function showList(open) {
  document.body.classList.toggle('list-collapsed', !open);
  $('list-toggle').setAttribute('aria-expanded', String(open));
}

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
  const next = nextProblem(data.problems);
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
    if (problem === next) item.classList.add('next');
    if (problem.problem === state.slug) link.setAttribute('aria-current', 'page');
    list.appendChild(item);
  }
  $('broken').textContent = data.broken.map((b) => `${b.problem}: ${b.error}`).join('\n');
  renderCourse(data.problems);
}

// What to do next: the first problem in course order not solved yet.
function nextProblem(problems) {
  return problems.find((problem) => problem.status !== 'solved');
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

function bestText(best) {
  if (!best) return '-';
  return best.cases ? `${best.verdict}, ${best.passed}/${best.cases} cases` : best.verdict;
}

// The landing view: the course in order, each problem's standing, and the
// one to do next as a button.
function renderCourse(problems) {
  const next = nextProblem(problems);
  const nextUp = $('next-up');
  nextUp.replaceChildren();
  if (next) {
    const go = element('a', 'primary', next.status === 'not started' ? 'Start' : 'Continue');
    go.setAttribute('aria-describedby', 'next-title');
    go.href = `#/problem/${encodeURIComponent(next.problem)}`;
    go.id = 'next-button';
    const title = element('div', 'next-title', next.title);
    title.id = 'next-title';
    nextUp.append(element('div', 'next-label', 'Next'), title, go);
  } else if (problems.length) {
    nextUp.append(element('div', 'next-title', `All ${plural(problems.length, 'problem')} solved.`));
  }
  const body = $('course').querySelector('tbody');
  body.replaceChildren();
  for (const problem of problems) {
    const row = element('tr');
    row.dataset.slug = problem.problem;
    const link = element('a', '', problem.title);
    link.href = `#/problem/${encodeURIComponent(problem.problem)}`;
    const title = element('td');
    title.appendChild(link);
    if (problem === next) {
      row.classList.add('next');
      title.appendChild(element('span', 'next-marker', 'next'));
    }
    row.append(element('td', '', String(problem.order)), title,
               element('td', `status status-${problem.status.replace(' ', '-')}`, problem.status),
               element('td', '', String(problem.attempts)), element('td', 'best', bestText(problem.best)));
    body.appendChild(row);
  }
}

function showCourse() {
  if (state.runAbort) state.runAbort.abort();
  state.slug = null;
  state.problem = null;
  showView('course');
  document.title = 'judge';
  unmarkProblems();
}

function unmarkProblems() {
  for (const item of document.querySelectorAll('#problem-list li')) {
    item.classList.remove('current');
    item.querySelector('a').removeAttribute('aria-current');
  }
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
  showView('problem');
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
  document.title = `${data.title} · judge`;
  for (const item of document.querySelectorAll('#problem-list li')) {
    item.classList.toggle('current', item.dataset.slug === slug);
    if (item.dataset.slug === slug) item.querySelector('a').setAttribute('aria-current', 'page');
    else item.querySelector('a').removeAttribute('aria-current');
  }
  // On a phone the list folds away once a problem is chosen.
  if (narrowScreen.matches) showList(false);
  if (editor.cm) editor.cm.setOption('screenReaderLabel', `Your solution, ${slug}`);
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
  $('passed-cases').replaceChildren();
  $('passed').hidden = true;
  $('passed').open = false;
  clearMarkers();
}

// A case in its list: a failure expanded among the failures, a pass
// folded under "N cases passed", which stays closed unless opened.
function addCase(test) {
  const item = caseItem(test);
  if (!item.classList.contains('passed')) { $('cases').appendChild(item); return; }
  $('passed-cases').appendChild(item);
  const count = $('passed-cases').children.length;
  $('passed-summary').textContent = `${plural(count, 'case')} passed`;
  $('passed').hidden = false;
}

function showError(message) {
  showTab('results');
  $('verdict').textContent = 'error';
  $('verdict').className = 'verdict-error';
  $('run-status').textContent = message || 'the request failed';
}

// The known mistakes of the result shown, numbered as listed: mistake -> number.
let hintNumbers = new Map();

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
  // The hint itself is shown once, above the cases; a case names which.
  if (test.hint) {
    const number = hintNumbers.get(test.hint);
    item.appendChild(element('div', 'case-hint',
                             number ? `explained by known mistake ${number} above` : `hint: ${test.hint}`));
  }
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
  hintNumbers = new Map((result.hints || []).map((hint, i) => [hint.mistake, i + 1]));
  for (const [i, hint] of (result.hints || []).entries())
    hints.appendChild(element('div', 'hint',
                              `Known mistake ${i + 1}: ${hint.mistake} (cases: ${hint.cases.join(', ')})`));
  // The search for known mistakes stopped early: said, so that no hint is
  // not the same as no known mistake.
  if (result.hints_cut_short)
    hints.appendChild(element('div', 'hint-cut-short',
                              'The search among the known mistakes did not finish, so a mistake may go unnamed ' +
                              `(${result.hints_cut_short}); the next run searches again.`));
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
  $('passed-cases').replaceChildren();
  for (const test of result.tests.filter((t) => t.verdict === 'accepted')) addCase(test);
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
        addCase(data);
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

// Tabs as a tablist: the selected tab is the one in the Tab order, and the
// arrow keys, Home and End move between tabs (and select them).
function showTab(name) {
  for (const button of document.querySelectorAll('.tabs [role="tab"]')) {
    const selected = button.dataset.tab === name;
    button.setAttribute('aria-selected', String(selected));
    button.tabIndex = selected ? 0 : -1;
  }
  for (const tab of document.querySelectorAll('.tab')) tab.hidden = tab.id !== `tab-${name}`;
  if (name === 'history') loadHistory();
  if (name === 'solution') loadSolution(false);
}

function onTabKey(event) {
  const tabs = [...document.querySelectorAll('.tabs [role="tab"]')];
  const at = tabs.indexOf(event.target);
  const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
  if (at < 0 || to === undefined) return;
  event.preventDefault();
  const tab = tabs[(to + tabs.length) % tabs.length];
  showTab(tab.dataset.tab);
  tab.focus();
}

// Ctrl-S saves and Ctrl-Enter runs, Cmd on a Mac, wherever the focus is
// on a problem's page. Caught before the editor sees them, so that vim's
// and emacs' own bindings of these keys do not take them.
function onShortcut(event) {
  if (!(event.ctrlKey || event.metaKey) || event.altKey || !state.problem) return;
  if (event.key === 's' || event.key === 'S') {
    event.preventDefault();
    event.stopPropagation();
    save();
  } else if (event.key === 'Enter') {
    event.preventDefault();
    event.stopPropagation();
    run();
  }
}

// ---- the Lab: `judge lab` in the page (POST /api/lab) ----
// The settings become the request's body; the text streams in as the
// learner's run writes it; once done, every generated character can be
// chosen to chart its step's next-token distribution after each stage.
// Beam search streams nothing: once done, its hypotheses are a table.
const STAGES = [
  { key: 'model', name: 'model softmax' },
  { key: 'penalty', name: 'after the penalty' },
  { key: 'temperature', name: 'after the temperature' },
  { key: 'filter', name: 'after the filter' },
];
const CHART_TOKENS = 15;  // the most probable by the model, and the chosen one
const lab = { abort: null, result: null, step: -1, chosen: -1, chart: null };  // chosen: its bar's index

// A token's character as a person can read it: newline and space are
// otherwise invisible on a chart's axis and in a screen reader.
function tokenChar(token) {
  return token === 0 ? '\n' : String.fromCharCode(token + 31);
}
function shownChar(text) {
  return text === '\n' ? '↵' : text === ' ' ? '␣' : text;
}
function spokenChar(text) {
  return text === '\n' ? 'newline' : text === ' ' ? 'space' : `'${text}'`;
}

function showLab() {
  if (state.runAbort) state.runAbort.abort();
  state.slug = null;
  state.problem = null;
  showView('lab');
  unmarkProblems();
  document.title = 'Lab · judge';
  if (narrowScreen.matches) showList(false);
}

// Which of the course, a problem and the Lab fills the main view; the
// header's link to it is marked current.
function showView(name) {
  $('welcome').hidden = name !== 'course';
  $('problem').hidden = name !== 'problem';
  $('lab').hidden = name !== 'lab';
  for (const [link, view] of [['course-link', 'course'], ['lab-link', 'lab']]) {
    if (view === name) $(link).setAttribute('aria-current', 'page');
    else $(link).removeAttribute('aria-current');
  }
}

// Sampling or beam search: the knobs of the other are hidden, as beam
// search has no sampler, penalty, filter, seed or draft model.
function chooseLabDecoding() {
  const decoding = $('lab-decoding').value;
  for (const knob of document.querySelectorAll('#lab-form [data-decoding]'))
    knob.hidden = knob.dataset.decoding !== decoding;
  chooseLabFilter();
}

function chooseLabFilter() {
  const filter = $('lab-filter').value;
  const value = $('lab-filter-value');
  $('lab-filter-value-label').hidden = filter === 'none' || $('lab-decoding').value !== 'sampling';
  $('lab-filter-value-name').textContent = filter === 'top_k' ? 'Top-k' : 'Top-p';
  if (filter === 'top_k') {
    Object.assign(value, { min: '1', max: '96', step: '1' });
    if (!Number.isInteger(Number(value.value)) || Number(value.value) < 1) value.value = '10';
  } else if (filter === 'top_p') {
    Object.assign(value, { min: '0.000001', max: '1', step: '0.05' });
    if (!(Number(value.value) > 0 && Number(value.value) <= 1)) value.value = '0.9';
  }
}

// The knobs as the body of POST /api/lab; the judge checks their ranges
// and names a bad one. Beam search ignores the sampling knobs, so they are
// not sent, nor checked.
function labSettings() {
  const number = (id) => Number($(id).value);
  if ($('lab-decoding').value === 'beam') {
    return {
      prompt: $('lab-prompt').value,
      max_new_tokens: number('lab-max-new-tokens'),
      beam_width: number('lab-beam-width'),
      length_penalty: number('lab-length-penalty'),
      reference_only: $('lab-reference-only').checked,
    };
  }
  const body = {
    prompt: $('lab-prompt').value,
    max_new_tokens: number('lab-max-new-tokens'),
    temperature: number('lab-temperature'),
    penalty: number('lab-penalty'),
    filter: $('lab-filter').value,
    greedy: $('lab-greedy').checked,
    seed: number('lab-seed'),
    draft_tokens: number('lab-draft-tokens'),
    reference_only: $('lab-reference-only').checked,
  };
  if (body.filter === 'top_p') body.top_p = number('lab-filter-value');
  if (body.filter === 'top_k') body.top_k = number('lab-filter-value');
  return body;
}

function clearLab() {
  lab.result = null;
  lab.step = -1;
  if (lab.chart) { lab.chart.destroy(); lab.chart = null; }
  $('lab-error').textContent = '';
  $('lab-compile-error').hidden = true;
  $('lab-stopped').hidden = true;
  $('lab-prompt-shown').textContent = '';
  const generated = $('lab-generated');
  generated.replaceChildren();
  for (const attribute of ['role', 'tabindex', 'aria-labelledby', 'aria-describedby', 'aria-activedescendant'])
    generated.removeAttribute(attribute);
  $('lab-text-help').hidden = true;
  $('lab-no-steps').hidden = true;
  $('lab-reference').hidden = true;
  $('lab-divergence').hidden = true;
  $('lab-step').hidden = true;
  $('lab-figures').hidden = true;
  $('lab-parts-box').hidden = true;
  $('lab-beam').hidden = true;
  $('lab-beam-difference').hidden = true;
  $('lab-beam-reference-box').hidden = true;
}

async function generate(event) {
  event.preventDefault();
  if (lab.abort) lab.abort.abort();
  const abort = new AbortController();
  lab.abort = abort;
  clearLab();
  const settings = labSettings();
  const beam = 'beam_width' in settings;
  // A beam width of 0 would be sampling: the judge's range for the knob is 1 to 16.
  if (beam && !(settings.beam_width >= 1)) {
    labError('beam_width: a number from 1 to 16');
    lab.abort = null;
    return;
  }
  $('lab-stream').hidden = beam;
  $('lab-generate').disabled = true;
  $('lab-status').textContent = 'starting';
  $('lab-prompt-shown').textContent = settings.prompt;
  let count = 0;
  try {
    const response = await fetch('/api/lab', {
      method: 'POST', signal: abort.signal,
      headers: { 'X-Judge-Token': token, 'Content-Type': 'application/json' },
      body: JSON.stringify(settings),
    });
    if (!response.ok) {
      const data = await response.json().catch(() => ({}));
      labError(data.error || `the lab failed (${response.status})`);
      return;
    }
    await readEvents(response, (name, data) => {
      if (abort !== lab.abort) return;
      if (name === 'progress') {
        $('lab-status').textContent = `${data.what}…`;
      } else if (name === 'ready') {
        showLabParts(data.parts);
        $('lab-status').textContent = beam ? 'searching' : 'generating';
      } else if (name === 'token') {
        count += 1;
        $('lab-generated').appendChild(element('span', 'lab-char', shownTextChar(data.char)));
        $('lab-status').textContent = `generating: ${count} of ${settings.max_new_tokens} tokens`;
      } else if (name === 'done') {
        showLabResult(data);
      } else if (name === 'error') {
        labError(data.message);
      }
    });
  } catch (error) {
    if (error.name !== 'AbortError') labError(`the lab stopped: ${error.message}`);
  } finally {
    if (abort === lab.abort) {
      lab.abort = null;
      $('lab-generate').disabled = false;
    }
  }
}

// In the text a newline is shown as a mark and a line break, so that it
// can be chosen like any other character.
function shownTextChar(text) {
  return text === '\n' ? '↵\n' : text;
}

function labError(message) {
  $('lab-error').textContent = `Error: ${message || 'the request failed'}`;
  $('lab-status').textContent = '';
}

function showLabParts(parts) {
  const body = $('lab-parts').querySelector('tbody');
  body.replaceChildren();
  for (const part of parts) {
    const row = element('tr', `whose-${part.whose}`);
    row.dataset.problem = part.problem;
    const whose = part.whose === 'yours' ? `yours (${part.file})` : 'the reference';
    row.append(element('td', '', part.problem), element('td', 'whose', whose), element('td', '', part.why));
    body.appendChild(row);
  }
  $('lab-parts-box').hidden = false;
}

function showLabResult(result) {
  lab.result = result;
  showLabParts(result.parts);
  $('lab-stream').hidden = Boolean(result.beam);
  if (result.compile_error) {
    $('lab-status').textContent = 'nothing ran';
    $('lab-error').textContent = 'One of your parts does not compile, so nothing ran:';
    $('lab-compile-error').textContent = result.compile_error;
    $('lab-compile-error').hidden = false;
    return;
  }
  if (result.beam) {
    showBeam(result);
    return;
  }
  const run = result.yours;
  $('lab-status').textContent = `done: ${plural(run.tokens, 'token')} in ${run.seconds.toFixed(2)} s`;
  if (run.stopped) {
    $('lab-stopped').textContent = `The run stopped ${run.stopped}.`;
    $('lab-stopped').hidden = false;
  }
  showLabSteps(run);
  if (result.reference) {
    $('lab-reference-text').replaceChildren(element('span', 'lab-prompt', result.prompt),
                                            document.createTextNode(result.reference.generated));
    $('lab-reference').hidden = false;
  }
  showDivergence(result);
  showFigures(result);
}

// The generated characters become a list box: Tab reaches it, the arrow
// keys, Home and End choose a step, a click chooses one too.
function showLabSteps(run) {
  const steps = run.steps || [];
  const generated = $('lab-generated');
  if (!steps.length) {
    // Speculative decoding keeps no step's distributions: the text as it
    // streamed in, unless some of it was missed.
    if (generated.children.length !== run.generated.length) {
      generated.replaceChildren();
      for (const char of run.generated) generated.appendChild(element('span', 'lab-char', shownTextChar(char)));
    }
    $('lab-no-steps').hidden = !run.speculative;
    return;
  }
  generated.replaceChildren();
  steps.forEach((step, i) => {
    const option = element('span', 'lab-char', shownTextChar(step.char));
    option.id = `lab-step-${i}`;
    option.setAttribute('role', 'option');
    option.setAttribute('aria-selected', 'false');
    option.setAttribute('aria-label', `token ${i + 1}: ${spokenChar(step.char)}`);
    option.dataset.step = String(i);
    generated.appendChild(option);
  });
  generated.setAttribute('role', 'listbox');
  generated.setAttribute('aria-labelledby', 'lab-text-heading');
  generated.setAttribute('aria-describedby', 'lab-text-help');
  generated.tabIndex = 0;
  $('lab-text-help').hidden = false;
  $('lab-step').hidden = false;
  chooseStep(0);
}

function onStepKey(event) {
  const steps = lab.result?.yours?.steps;
  if (!steps || !steps.length) return;
  const moves = { ArrowRight: lab.step + 1, ArrowDown: lab.step + 1, ArrowLeft: lab.step - 1, ArrowUp: lab.step - 1,
                  Home: 0, End: steps.length - 1 };
  if (!(event.key in moves)) return;
  event.preventDefault();
  chooseStep(Math.min(steps.length - 1, Math.max(0, moves[event.key])));
}

function onStepClick(event) {
  const option = event.target.closest('[role="option"]');
  if (!option) return;
  chooseStep(Number(option.dataset.step));
  $('lab-generated').focus();
}

function chooseStep(index) {
  const steps = lab.result.yours.steps;
  const previous = $(`lab-step-${lab.step}`);
  if (previous) previous.setAttribute('aria-selected', 'false');
  lab.step = index;
  const option = $(`lab-step-${index}`);
  option.setAttribute('aria-selected', 'true');
  $('lab-generated').setAttribute('aria-activedescendant', option.id);
  option.scrollIntoView({ block: 'nearest' });
  const step = steps[index];
  $('lab-step-title').textContent = `Token ${index + 1} of ${steps.length}: ${spokenChar(step.char)} ` +
                                    `(id ${step.token}), drawn from the distribution after the filter`;
  drawStep(step);
}

// The tokens charted: the most probable by the model, and the chosen one
// when the model did not rank it among them (the stages after can lift it).
function chartedTokens(step) {
  const byModel = step.model.map((p, token) => [p, token]).sort((a, b) => b[0] - a[0]);
  const tokens = byModel.slice(0, CHART_TOKENS).map(([, token]) => token);
  if (!tokens.includes(step.token)) tokens.push(step.token);
  return tokens;
}

// The stages' colours from the page's theme (style.css), read when drawn.
function themeColour(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

function drawStep(step) {
  const tokens = chartedTokens(step);
  const chosen = tokens.indexOf(step.token);
  lab.chosen = chosen;
  const labels = tokens.map((token) => shownChar(tokenChar(token)));
  const body = $('lab-step-table').querySelector('tbody');
  body.replaceChildren();
  for (const token of tokens) {
    const row = element('tr', token === step.token ? 'chosen' : '');
    const name = spokenChar(tokenChar(token)) + (token === step.token ? ' (chosen)' : '');
    row.appendChild(element('th', '', name)).scope = 'row';
    for (const stage of STAGES) row.appendChild(element('td', '', step[stage.key][token].toFixed(4)));
    body.appendChild(row);
  }
  const chosenText = spokenChar(tokenChar(step.token));
  $('lab-chart').setAttribute('aria-label', `Bar chart of the next-token probabilities after each stage for the ` +
                              `${tokens.length} tokens in the table below; the chosen token, ${chosenText}, has ` +
                              STAGES.map((stage) => `${step[stage.key][step.token].toFixed(3)} ${stage.name}`)
                                .join(', '));
  if (!window.Chart) {
    $('lab-numbers').open = true;  // no chart without Chart.js: the numbers instead
    return;
  }
  const datasets = STAGES.map((stage, i) => ({
    label: stage.name,
    data: tokens.map((token) => step[stage.key][token]),
    backgroundColor: themeColour(`--stage-${i + 1}`),
    borderColor: tokens.map((_, k) => (k === chosen ? themeColour('--ink') : 'transparent')),
    borderWidth: tokens.map((_, k) => (k === chosen ? 2 : 0)),
  }));
  if (lab.chart) {
    lab.chart.data.labels = labels;
    lab.chart.data.datasets = datasets;
    lab.chart.update();
    return;
  }
  const ink = themeColour('--ink');
  const line = themeColour('--line');
  lab.chart = new Chart($('lab-chart'), {
    type: 'bar',
    data: { labels, datasets },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      color: ink,
      scales: {
        x: {
          ticks: {
            // The chosen token marked under its label, in words where there is room.
            callback(value, index) {
              const label = this.getLabelForValue(value);
              return index === lab.chosen ? [label, this.chart.width > 560 ? '▲ chosen' : '▲'] : label;
            },
            color: (context) => (context.index === lab.chosen ? themeColour('--accent') : ink),
            font: (context) => ({ size: 13, weight: context.index === lab.chosen ? 'bold' : 'normal' }),
            autoSkip: false,
            maxRotation: 0,
          },
          grid: { color: line },
        },
        y: { beginAtZero: true, title: { display: true, text: 'probability', color: ink },
             ticks: { color: ink }, grid: { color: line } },
      },
      plugins: {
        legend: { labels: { color: ink } },
        tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${item.parsed.y.toFixed(4)}` } },
      },
    },
  });
}

function currentStep() {
  return lab.result.yours.steps[lab.step];
}

// A theme change redraws the chart in the theme's colours.
function redrawLabChart() {
  if (!lab.chart || lab.step < 0) return;
  lab.chart.destroy();
  lab.chart = null;
  drawStep(currentStep());
}

function showDivergence(result) {
  const box = $('lab-divergence');
  const d = result.divergence;
  box.replaceChildren();
  if (!result.reference) return;
  box.hidden = false;
  if (!d) {
    box.className = 'agree';
    box.textContent = result.yours.stopped
      ? `Before it stopped, your parts gave the reference's next-token distributions at all ${result.steps_compared} steps.`
      : `Your parts give the reference's next-token distributions at all ${result.steps_compared} steps.`;
    return;
  }
  box.className = 'differ';
  box.append(`First difference at generated token ${d.step + 1}, after the ${d.stage} stage: the probability of ` +
             `${spokenChar(d.char)} is ${d.yours.toPrecision(6)} in yours, ${d.reference.toPrecision(6)} in the ` +
             `reference's (the largest difference, ${d.max_difference.toPrecision(3)}); ` +
             `${d.steps_differing} of ${result.steps_compared} steps differ.` +
             (d.stage === 'model' ? ' The model\'s own output differs, so the attention step (kv_cache) is where to look.' : ''));
  if ($(`lab-step-${d.step}`)) {
    const show = element('button', '', `Show token ${d.step + 1}`);
    show.type = 'button';
    show.onclick = () => { chooseStep(d.step); $('lab-generated').focus(); };
    box.append(' ', show);
  }
}

// ---- beam search in the Lab ----
// The beam as a table, best score first, with the greedy path in the same
// columns under it; the reference's beam too when the part is the
// learner's, and where the two first differ, above them.
function showBeam(result) {
  const beam = result.beam;
  const run = beam.yours;
  const mine = result.parts.some((part) => part.problem === 'beam_search' && part.whose === 'yours');
  const { beam_width: width, length_penalty: penalty, max_new_tokens: most } = result.settings;
  const count = `${run.hypotheses.length} ${run.hypotheses.length === 1 ? 'hypothesis' : 'hypotheses'}`;
  $('lab-status').textContent = `done: ${count} in ${run.seconds.toFixed(2)} s`;
  if (run.stopped) {
    $('lab-stopped').textContent = `The search stopped ${run.stopped}.`;
    $('lab-stopped').hidden = false;
  }
  const rank = beam.difference?.rank;
  $('lab-beam-heading').textContent = mine ? 'Your beam search' : 'Beam search (the reference\'s part)';
  $('lab-beam-summary').textContent =
    `${mine ? 'Your' : 'The'} search, width ${width}, asked the model ${plural(run.model_calls, 'time')} in ` +
    `${run.seconds.toFixed(2)} s and returned ${count}. ` +
    `A hypothesis ends at a newline (shown ↵) or after ${plural(most, 'token')}; ` +
    `its score is log_prob ÷ tokens^${penalty} (the length penalty), and the beam is ranked by it.`;
  $('lab-beam-yours').replaceChildren(
    beamTable(`${mine ? 'Your' : 'The'} beam, best score first, and the greedy path`, run.hypotheses, result.prompt,
              rank, beam.greedy));
  $('lab-beam-greedy-why').textContent = greedyContrast(run.hypotheses[0], beam.greedy, width);
  if (beam.reference) {
    const reference = beam.reference;
    $('lab-beam-reference-summary').textContent =
      `The reference's search asked the model ${plural(reference.model_calls, 'time')} in ` +
      `${reference.seconds.toFixed(2)} s` + (reference.stopped ? `, and stopped ${reference.stopped}.` : '.');
    $('lab-beam-reference').replaceChildren(
      beamTable('The reference\'s beam, best score first', reference.hypotheses, result.prompt, rank));
    $('lab-beam-reference-box').hidden = false;
  }
  showBeamDifference(beam, mine);
  $('lab-beam').hidden = false;
}

// Why greedy and beam search can end apart, and how they did here.
function greedyContrast(best, greedy, width) {
  const why = 'Greedy takes the most probable character at every step and never goes back. Beam search keeps the ' +
              `${plural(width, 'best beginning')} at every step, so it can go through a less probable character to ` +
              'a text better as a whole.';
  if (!best) return why;
  const [b, g] = [best.score.toFixed(4), greedy.score.toFixed(4)];
  if (best.text === greedy.text) return `${why} Here the beam's best is greedy's text.`;
  if (greedy.score > best.score) {
    return `${why} Here greedy scores better (${g} against ${b}): beam search does not try every text, and ` +
           'dropped greedy\'s on the way.';
  }
  if (greedy.score < best.score) return `${why} Here the beam's best scores better (${b} against ${g}).`;
  return `${why} Here the beam's best and greedy score the same.`;
}

// The difference in words, where it can be missed least: above the tables.
function showBeamDifference(beam, mine) {
  const box = $('lab-beam-difference');
  const d = beam.difference;
  const whose = mine ? 'Your' : 'The';
  if (d) {
    box.className = 'lab-verdict differ';
    box.textContent = `${whose} beam differs${d.rank ? ` at hypothesis ${d.rank}` : ''}: ${d.what}.`;
  } else if (beam.reference && !beam.reference.stopped && !beam.yours.stopped) {
    box.className = 'lab-verdict agree';
    box.textContent = 'Your beam is the reference\'s: the same hypotheses, in the same order, with the same scores.';
  } else {
    return;
  }
  box.hidden = false;
}

// A table of hypotheses: rank, the text after the prompt (a newline shown
// as ↵), tokens, log_prob, score and whether it ended; `differs` is the
// rank to mark, `greedy` a last row in a body of its own.
function beamTable(caption, hypotheses, prompt, differs, greedy) {
  const table = element('table', 'lab-beam-table');
  table.appendChild(element('caption', '', caption));
  const head = table.createTHead().insertRow();
  for (const name of ['rank', 'text', 'tokens', 'log_prob', 'score', 'ended'])
    head.appendChild(element('th', '', name)).scope = 'col';
  const body = table.createTBody();
  hypotheses.forEach((h, i) => body.appendChild(hypothesisRow(String(i + 1), h, prompt, i + 1 === differs)));
  if (greedy) table.appendChild(element('tbody', 'lab-greedy')).appendChild(hypothesisRow('greedy', greedy, prompt));
  return table;
}

function hypothesisRow(rank, hypothesis, prompt, differs) {
  const row = element('tr', differs ? 'differs' : '');
  row.appendChild(element('th', '', rank)).scope = 'row';
  const text = element('td', 'lab-beam-text');
  text.append(element('span', 'lab-prompt', visibleNewlines(prompt)), visibleNewlines(hypothesis.text));
  row.append(text, element('td', '', String(hypothesis.tokens)), element('td', '', hypothesis.log_prob.toFixed(4)),
             element('td', '', hypothesis.score.toFixed(4)), element('td', '', hypothesis.finished ? 'yes' : 'no'));
  return row;
}

function visibleNewlines(text) {
  return text.replace(/\n/g, '↵');
}

function figure(list, term, value, className) {
  const row = element('div', className);
  row.append(element('dt', '', term), element('dd', '', value));
  list.appendChild(row);
}

function showFigures(result) {
  const run = result.yours;
  const list = $('lab-figure-list');
  list.replaceChildren();
  figure(list, 'speed', `${plural(run.tokens, 'token')} in ${run.seconds.toFixed(2)} s: ` +
                        `${Math.round(run.tokens_per_second)} tokens a second`, 'figure-speed');
  const cache = run.kv_cache;
  const target = result.models.target;
  figure(list, 'KV cache by the formula', `${cache.formula_bytes} bytes = 2 × ${target.layers} layers × ` +
         `${target.kv_heads} kv heads × ${target.head_dim} head_dim × ${cache.positions} positions × 8 bytes`,
         'figure-formula');
  figure(list, 'KV cache held', `${cache.held_bytes} bytes (layer lengths ${cache.layer_lengths.join(', ')})` +
         (cache.held_bytes === cache.formula_bytes ? '' : ': not what the formula says'),
         cache.held_bytes === cache.formula_bytes ? 'figure-held' : 'figure-held differ');
  figure(list, 'KV cache allocated', `${cache.allocated_bytes} bytes (matrices for ${target.context} positions)`,
         'figure-allocated');
  const s = run.speculative;
  if (s) {
    const z = s.standard_error > 0 ? (s.measured_acceptance - s.predicted_acceptance) / s.standard_error : 0;
    figure(list, 'acceptance', `measured ${s.measured_acceptance.toFixed(3)} (${s.accepted} of ${s.reached} drafts ` +
           `reached), predicted ${s.predicted_acceptance.toFixed(3)} ± ${s.standard_error.toFixed(3)}: ` +
           (Math.abs(z) <= 3 ? 'within' : 'NOT within') + ` sampling error (z = ${z.toFixed(2)})`,
           'figure-acceptance');
    figure(list, 'target passes saved', `${s.target_passes_saved} (${s.emitted} tokens in ${s.rounds} target passes, ` +
           `${result.settings.draft_tokens} drafts a round)`, 'figure-passes');
  }
  $('lab-figures').hidden = false;
}

// ---- wiring ----
function route() {
  const match = location.hash.match(/^#\/problem\/([^/]+)$/);
  if (match) openProblem(decodeURIComponent(match[1]));
  else if (location.hash === '#/lab') showLab();
  else showCourse();
}

// Where the panes stack and the list folds away (style.css agrees).
const narrowScreen = window.matchMedia('(max-width: 760px)');

$('start-button').onclick = start;
$('save-button').onclick = () => save();
$('run-button').onclick = run;
$('try-button').onclick = tryInput;
$('solution-force').onclick = () => loadSolution(true);
$('load-disk').onclick = () => { if (state.diskFile) takeFile(state.diskFile); };
$('keep-mine').onclick = () => { $('disk-changed').hidden = true; state.version = state.diskFile.version; };
for (const button of document.querySelectorAll('.tabs [role="tab"]')) button.onclick = () => showTab(button.dataset.tab);
document.querySelector('.tabs').addEventListener('keydown', onTabKey);
document.addEventListener('keydown', onShortcut, true);
// Generate is a plain button: the page's policy allows no form action,
// which keeps a form's submission from being seen. Enter in a knob runs it too.
$('lab-generate').onclick = generate;
$('lab-form').addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && event.target.tagName === 'INPUT' && !$('lab-generate').disabled) generate(event);
});
$('lab-filter').onchange = chooseLabFilter;
$('lab-decoding').onchange = chooseLabDecoding;
chooseLabDecoding();  // a reload can bring back the choice the page had
$('lab-generated').addEventListener('keydown', onStepKey);
$('lab-generated').addEventListener('click', onStepClick);
window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', redrawLabChart);
$('list-toggle').onclick = () => showList(document.body.classList.contains('list-collapsed'));
$('keymap').onchange = () => chooseKeymap($('keymap').value);
$('font-size').onchange = () => chooseFontSize($('font-size').value);
chooseKeymap(localStorage.getItem('judge-keymap') || 'default');
chooseFontSize(localStorage.getItem('judge-font-size') || 13);
showList(!narrowScreen.matches);
narrowScreen.addEventListener('change', () => showList(!narrowScreen.matches));
window.addEventListener('hashchange', route);
loadProblems().then(route);
setInterval(watchFile, 1500);
