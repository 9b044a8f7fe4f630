// Tests for Sources/HitTestBridge/Resources/scratchpad-ink-page.js, run with
//   node --test Tests/PageScript/
// The script runs in a vm context whose global is the fake window of dom-stub.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPage, DOCUMENT } from './dom-stub.mjs';

const ID = '0123456789abcdef0123456789abcdef';
const request = (x, y, extra = {}) => ({ type: 'hitTest', id: ID, x, y, generation: 1, ...extra });
const answer = (interactive, generation = 1, id = ID) =>
  `{"type":"answer","id":"${id}","interactive":${interactive},"generation":${generation},"document":"${DOCUMENT}"}`;

// A page with: an interactive button at the top, a `.interactive` card with a plain
// child span, a plain paragraph, and an interactive button further down the page.
function examplePage(options) {
  const page = createPage(options);
  page.add('button', { id: 'top-button', attributes: { 'data-ink-interactive': '' }, rect: { x: 10, y: 10, width: 100, height: 40 } });
  const card = page.add('div', { className: 'card interactive', rect: { x: 200, y: 100, width: 300, height: 200 } });
  page.add('span', { rect: { x: 220, y: 120, width: 50, height: 20 } }, card);
  page.add('p', { className: 'prose', rect: { x: 10, y: 400, width: 600, height: 100 } });
  page.add('button', { id: 'low-button', attributes: { 'data-ink-interactive': '' }, rect: { x: 10, y: 1010, width: 100, height: 40 } });
  return page;
}

test('hitTest answers 1 on an interactive element, 0 on background, 1 on a child of an interactive element', () => {
  const page = examplePage();
  const ink = page.load();
  page.clear();
  ink.hitTest(request(20, 20));
  ink.hitTest(request(700, 50)); // body background
  ink.hitTest(request(30, 450)); // plain paragraph
  ink.hitTest(request(230, 125)); // span inside .interactive
  ink.hitTest(request(450, 250)); // the .interactive card itself
  assert.deepEqual(page.texts(), [answer(1), answer(0), answer(0), answer(1), answer(1)]);
});

test('hitTest walks parentElement with matches() when closest() is unavailable', () => {
  const page = createPage();
  const card = page.add('div', { className: 'interactive', rect: { x: 0, y: 0, width: 100, height: 100 } });
  const span = page.add('span', { rect: { x: 10, y: 10, width: 20, height: 20 } }, card);
  const plain = page.add('span', { rect: { x: 200, y: 10, width: 20, height: 20 } });
  span.closest = undefined;
  plain.closest = undefined;
  const ink = page.load();
  page.clear();
  ink.hitTest(request(15, 15));
  ink.hitTest(request(205, 15));
  assert.deepEqual(page.texts(), [answer(1), answer(0)]);
});

test('hitTest converts page coordinates to viewport coordinates with the scroll offset', () => {
  const page = examplePage();
  const ink = page.load();
  page.clear();
  page.scrollTo(0, 1000);
  ink.hitTest(request(20, 1020)); // the low button: viewport (20, 20)
  ink.hitTest(request(20, 20)); // the top button, scrolled out of view: viewport (20, -980)
  page.scrollTo(15, 1000);
  ink.hitTest(request(100, 1020)); // viewport (85, 20): the low button (unconverted x would land at page 115, outside)
  ink.hitTest(request(5, 1020)); // viewport (-10, 20): outside the viewport, left of the button
  assert.deepEqual(page.texts(), [answer(1), answer(0), answer(1), answer(0)]);
});

test('hitTest answers with the page generation when the request names one it does not know', () => {
  const page = examplePage();
  const ink = page.load();
  page.window.dispatch('resize');
  page.clear();
  ink.hitTest(request(20, 20, { generation: 7 }));
  ink.hitTest(request(20, 20, { generation: 0 }));
  assert.deepEqual(page.texts(), [answer(1, 2), answer(1, 2)]);
});

test('hitTest keeps the request generation through DOM changes while the coordinate mapping is unchanged', () => {
  const page = examplePage();
  const ink = page.load();
  page.mutate();
  page.mutate(); // generations 2 and 3: the DOM changed, the mapping did not
  page.clear();
  ink.hitTest(request(20, 20, { generation: 1 }));
  ink.hitTest(request(20, 20, { generation: 2 }));
  assert.deepEqual(page.texts(), [answer(1, 1), answer(1, 2)]);
});

test('hitTest answers with the page generation once the mapping changed: scroll, resize, selector', () => {
  const page = examplePage();
  const ink = page.load();
  page.scrollTo(0, 40);
  page.window.dispatch('scroll'); // generation 2, scrolled
  page.clear();
  ink.hitTest(request(20, 60, { generation: 1 })); // asked under the old scroll
  ink.hitTest(request(20, 60, { generation: 2 }));
  page.window.innerWidth = 500;
  page.window.dispatch('resize'); // generation 3
  ink.hitTest(request(20, 60, { generation: 2 }));
  ink.configure({ selector: 'button' }); // generation 4
  ink.hitTest(request(20, 60, { generation: 3 }));
  assert.deepEqual(page.messages().filter((m) => m.type === 'answer').map((m) => m.generation), [2, 2, 3, 4]);
});

test('hitTest remembers the mappings of the last 64 generations only', () => {
  const page = examplePage();
  const ink = page.load();
  for (let i = 0; i < 70; i += 1) { page.mutate(); } // generations 2 to 71
  page.clear();
  ink.hitTest(request(20, 20, { generation: 1 }));
  ink.hitTest(request(20, 20, { generation: 8 }));
  assert.deepEqual(page.texts(), [answer(1, 71), answer(1, 8)]);
});

test('invalid hitTest requests post nothing and do not throw', () => {
  const page = examplePage();
  const ink = page.load();
  page.clear();
  const throwingGetter = { type: 'hitTest', id: ID, get x() { throw new Error('boom'); }, y: 1, generation: 1 };
  const invalid = [
    request(20, 20, { id: ID.toUpperCase() }),
    request(20, 20, { id: ID.slice(1) }),
    request(20, 20, { id: ID + '0' }),
    request(20, 20, { id: 12345 }),
    request(NaN, 20),
    request(20, Infinity),
    request('20', 20),
    (({ generation, ...rest }) => rest)(request(20, 20)),
    request(20, 20, { generation: -1 }),
    request(20, 20, { generation: 1.5 }),
    request(20, 20, { generation: '1' }),
    request(20, 20, { type: 'hittest' }),
    request(20, 20, { type: 'answer' }),
    JSON.stringify(request(20, 20)),
    null,
    undefined,
    42,
    throwingGetter,
  ];
  for (const bad of invalid) {
    assert.doesNotThrow(() => ink.hitTest(bad));
  }
  assert.doesNotThrow(() => ink.hitTest());
  assert.deepEqual(page.texts(), []);
  ink.hitTest(request(20, 20)); // the harness is live: a valid request is answered
  assert.deepEqual(page.texts(), [answer(1)]);
});

test('messages go to webkit.messageHandlers.scratchpadInk when present, even when a host function exists', () => {
  const page = examplePage({ webkit: true, host: true });
  const ink = page.load();
  page.clear();
  ink.hitTest(request(20, 20));
  assert.deepEqual(page.posted, [{ channel: 'webkit', text: answer(1) }]);
});

test('messages go to scratchpadInkHost when webkit is absent', () => {
  const page = examplePage({ webkit: false, host: true });
  const ink = page.load();
  assert.equal(page.posted.length, 1);
  assert.equal(page.posted[0].channel, 'host'); // the initial snapshot
  page.clear();
  ink.hitTest(request(20, 20));
  assert.deepEqual(page.posted, [{ channel: 'host', text: answer(1) }]);
});

test('with no channel messages are dropped silently; a channel installed later is used', () => {
  const page = examplePage({ webkit: false, host: false });
  let ink;
  assert.doesNotThrow(() => { ink = page.load(); });
  assert.doesNotThrow(() => ink.hitTest(request(20, 20)));
  assert.doesNotThrow(() => ink.pushRegions());
  assert.deepEqual(page.posted, []);
  page.installHost();
  ink.hitTest(request(20, 20));
  page.installWebkit();
  ink.hitTest(request(700, 50));
  assert.deepEqual(page.posted, [{ channel: 'host', text: answer(1) }, { channel: 'webkit', text: answer(0) }]);
});

test('the initial snapshot lists interactive rects in page coordinates, skips zero sizes, names elements by id', () => {
  const page = createPage();
  page.scrollTo(30, 200);
  page.add('button', { id: 'a', attributes: { 'data-ink-interactive': '' }, rect: { x: 10.123, y: 250.456, width: 100.006, height: 40 } });
  page.add('div', { id: 'zero-width', className: 'interactive', rect: { x: 5, y: 5, width: 0, height: 10 } });
  page.add('div', { id: 'zero-height', className: 'interactive', rect: { x: 5, y: 5, width: 10, height: 0 } });
  page.add('p', { id: 'plain', rect: { x: 0, y: 0, width: 50, height: 50 } });
  const unnamed = page.add('div', { className: 'x interactive', rect: { x: 0, y: 0, width: 20, height: 30 } });
  page.add('span', { id: 'inner', className: 'interactive', rect: { x: 1, y: 2, width: 3, height: 4 } }, unnamed);
  page.add('a', { id: 'L'.repeat(100), attributes: { 'data-ink-interactive': '' }, rect: { x: 40, y: 60, width: 8, height: 9 } });
  page.load();
  assert.deepEqual(page.texts(), [
    `{"type":"regions","generation":1,"document":"${DOCUMENT}","shown":true,"maxAge":1000,"regions":[`
      + '{"x":10.12,"y":250.46,"width":100.01,"height":40,"element":"a"},'
      + '{"x":0,"y":0,"width":20,"height":30},'
      + '{"x":1,"y":2,"width":3,"height":4,"element":"inner"},'
      + `{"x":40,"y":60,"width":8,"height":9,"element":"${'L'.repeat(64)}"}]}`,
  ]);
});

test('a long id is cut to 64 UTF-16 units without splitting a surrogate pair', () => {
  const page = createPage();
  page.add('div', { id: 'a'.repeat(63) + '\u{1F600}tail', className: 'interactive', rect: { x: 0, y: 0, width: 1, height: 1 } });
  page.load();
  assert.deepEqual(page.texts(), [
    `{"type":"regions","generation":1,"document":"${DOCUMENT}","shown":true,"maxAge":1000,"regions":[{"x":0,"y":0,"width":1,"height":1,"element":"${'a'.repeat(63)}"}]}`,
  ]);
});

test('configure caps the number of regions and sets maxAge', () => {
  const page = createPage();
  for (let i = 0; i < 5; i++) {
    page.add('div', { id: `r${i}`, className: 'interactive', rect: { x: i * 10, y: 0, width: 10, height: 10 } });
  }
  const ink = page.load();
  page.clear();
  assert.equal(ink.configure({ maxRegions: 2, maxAge: 250 }), undefined);
  ink.pushRegions();
  assert.deepEqual(page.texts(), [
    `{"type":"regions","generation":1,"document":"${DOCUMENT}","maxAge":250,"regions":[`
      + '{"x":0,"y":0,"width":10,"height":10,"element":"r0"},{"x":10,"y":0,"width":10,"height":10,"element":"r1"}]}',
  ]);
  page.clear();
  ink.configure({ maxRegions: 0 });
  ink.pushRegions();
  assert.deepEqual(page.texts(), [`{"type":"regions","generation":1,"document":"${DOCUMENT}","maxAge":250,"regions":[]}`]);
});

test('configure with a custom selector changes snapshots and answers and bumps the generation', () => {
  const page = examplePage();
  page.add('div', { id: 'special', className: 'special', rect: { x: 700, y: 10, width: 50, height: 50 } });
  const ink = page.load();
  page.clear();
  ink.configure({ selector: '.special' });
  assert.equal(ink.generation, 2);
  assert.deepEqual(page.texts(), []); // inside the throttle window of the initial push
  page.clock.advance(100);
  assert.deepEqual(page.texts(), [
    `{"type":"regions","generation":2,"document":"${DOCUMENT}","maxAge":1000,"regions":[{"x":700,"y":10,"width":50,"height":50,"element":"special"}]}`,
  ]);
  page.clear();
  ink.hitTest(request(20, 20));
  ink.hitTest(request(710, 20));
  assert.deepEqual(page.texts(), [answer(0, 2), answer(1, 2)]);
});

test('configure ignores invalid options, including a selector the DOM rejects', () => {
  const page = examplePage();
  const ink = page.load();
  page.clock.advance(100);
  page.clear();
  for (const bad of [null, 'x', { selector: '' }, { selector: 42 }, { selector: '[[' },
    { maxAge: -1 }, { maxAge: NaN }, { maxRegions: 1.5 }, { maxRegions: -3 }, { throttle: Infinity }]) {
    assert.doesNotThrow(() => ink.configure(bad));
  }
  assert.equal(ink.generation, 1);
  ink.pushRegions();
  assert.deepEqual(page.texts(), [
    `{"type":"regions","generation":1,"document":"${DOCUMENT}","maxAge":1000,"regions":[`
      + '{"x":10,"y":10,"width":100,"height":40,"element":"top-button"},'
      + '{"x":200,"y":100,"width":300,"height":200},'
      + '{"x":10,"y":1010,"width":100,"height":40,"element":"low-button"}]}',
  ]);
});

test('while the document is loading, the first snapshot waits for DOMContentLoaded', () => {
  const page = examplePage({ readyState: 'loading' });
  page.load();
  assert.deepEqual(page.texts(), []);
  page.document.readyState = 'interactive';
  page.document.dispatch('DOMContentLoaded');
  assert.equal(page.texts().length, 1);
  assert.equal(page.messages()[0].type, 'regions');
  assert.equal(page.messages()[0].regions.length, 3);
  page.document.dispatch('DOMContentLoaded'); // the listener was registered once
  assert.equal(page.texts().length, 1);
});

test('listeners: resize, capturing passive scroll on window, and a MutationObserver on the root', () => {
  const page = examplePage();
  page.load();
  const resize = page.window.listenersFor('resize');
  const scroll = page.window.listenersFor('scroll');
  assert.equal(resize.length, 1);
  assert.equal(scroll.length, 1);
  assert.equal(scroll[0].options.capture, true);
  assert.equal(scroll[0].options.passive, true);
  assert.equal(page.observers.length, 1);
  const [{ target, options }] = page.observers[0].targets;
  assert.equal(target, page.document.documentElement);
  assert.equal(options.childList, true);
  assert.equal(options.subtree, true);
  assert.equal(options.attributes, true);
});

test('generation increments on resize, scroll and mutation; pushes are throttled with one trailing push', () => {
  const page = examplePage();
  const ink = page.load();
  const generations = () => page.messages().map((m) => [m.type, m.generation]);
  assert.deepEqual(generations(), [['regions', 1]]); // t=0, opens a window until t=100
  page.clock.advance(100); // the window closes with nothing pending
  assert.deepEqual(generations(), [['regions', 1]]);
  assert.equal(page.clock.pending, 1); // only the heartbeat (due at t=500)

  page.window.dispatch('resize'); // t=100: generation 2, pushed at once
  assert.equal(ink.generation, 2);
  assert.deepEqual(generations(), [['regions', 1], ['regions', 2]]);
  page.clock.advance(10);
  page.scrollTo(0, 500);
  page.window.dispatch('scroll'); // t=110: generation 3, inside the window
  page.clock.advance(10);
  page.add('div', { id: 'new', className: 'interactive', rect: { x: 0, y: 700, width: 10, height: 10 } });
  page.mutate(); // t=120: generation 4, inside the window
  page.window.dispatch('resize'); // t=120: generation 5, inside the window
  assert.equal(ink.generation, 5);
  assert.deepEqual(generations(), [['regions', 1], ['regions', 2]]);
  page.clock.advance(79); // t=199: still inside
  assert.equal(page.texts().length, 2);
  page.clock.advance(1); // t=200: the trailing push, carrying the latest generation and layout
  assert.deepEqual(generations(), [['regions', 1], ['regions', 2], ['regions', 5]]);
  assert.deepEqual(page.messages()[2].regions.at(-1), { x: 0, y: 700, width: 10, height: 10, element: 'new' });
  page.clock.advance(499); // t=699: no further layout push; the heartbeat is due at t=700
  assert.equal(page.texts().length, 3);

  page.clear();
  ink.hitTest(request(20, 1020)); // scrolled by 500: viewport y 520, the low button
  assert.deepEqual(page.texts(), [answer(1, 5)]);
});

test('configure throttle changes the throttle window', () => {
  const page = examplePage();
  const ink = page.load();
  ink.configure({ throttle: 300 });
  page.clock.advance(100); // closes the window opened by the initial push (100 ms)
  page.clear();
  page.window.dispatch('resize'); // generation 2, at once; window until t=400
  page.mutate(); // generation 3, pending
  page.clock.advance(299);
  assert.deepEqual(page.messages().map((m) => m.generation), [2]);
  page.clock.advance(1);
  assert.deepEqual(page.messages().map((m) => m.generation), [2, 3]);
  assert.equal(ink.generation, 3);
});

test('the api is frozen and generation is read-only', () => {
  const page = examplePage();
  const ink = page.load();
  assert.ok(Object.isFrozen(ink));
  assert.throws(() => { ink.generation = 99; }, TypeError);
  assert.throws(() => { ink.hitTest = () => {}; }, TypeError);
  assert.equal(ink.generation, 1);
  page.run('window.scratchpadInk = { hitTest: function () {} };'); // sloppy page code
  assert.equal(page.window.scratchpadInk, ink);
});

test('installing twice keeps the first instance and does not double listeners or pushes', () => {
  const page = examplePage();
  const first = page.load();
  const second = page.load();
  assert.equal(second, first);
  assert.equal(page.window.listenersFor('resize').length, 1);
  assert.equal(page.window.listenersFor('scroll').length, 1);
  assert.equal(page.observers.length, 1);
  assert.equal(page.texts().length, 1);
  page.clock.advance(100);
  page.window.dispatch('resize');
  assert.equal(first.generation, 2);
  assert.deepEqual(page.messages().map((m) => m.generation), [1, 2]);
});

test('a page overwriting JSON.stringify, Math.round or Object.prototype.toJSON after install does not change messages', () => {
  const page = examplePage();
  const ink = page.load();
  page.clear();
  page.run(`
    JSON.stringify = function () { return '{"type":"answer","id":"tampered","interactive":1,"generation":0}'; };
    Math.round = function () { return 12345; };
    Object.prototype.toJSON = function () { return 'evil'; };
  `);
  // The overrides are live in the page's realm.
  assert.equal(page.run('JSON.stringify({})'), '{"type":"answer","id":"tampered","interactive":1,"generation":0}');
  assert.equal(page.run('Math.round(1.4)'), 12345);
  ink.hitTest(request(700, 50));
  ink.pushRegions();
  assert.deepEqual(page.texts(), [
    answer(0),
    `{"type":"regions","generation":1,"document":"${DOCUMENT}","maxAge":1000,"regions":[`
      + '{"x":10,"y":10,"width":100,"height":40,"element":"top-button"},'
      + '{"x":200,"y":100,"width":300,"height":200},'
      + '{"x":10,"y":1010,"width":100,"height":40,"element":"low-button"}]}',
  ]);
});

// Heartbeat (see the script's header). Advances the fake clock 1 ms at a time for `ms`
// milliseconds and returns [time, generation] for every snapshot posted on the way.
function pushTimes(page, ms) {
  const out = [];
  for (let i = 0; i < ms; i++) {
    const before = page.posted.length;
    page.clock.advance(1);
    for (const { text } of page.posted.slice(before)) {
      const message = JSON.parse(text);
      assert.equal(message.type, 'regions');
      out.push([page.clock.now, message.generation]);
    }
  }
  return out;
}

test('heartbeat: a static page gets a snapshot every maxAge/2 with an unchanged generation', () => {
  const page = examplePage();
  const ink = page.load(); // t=0: the first snapshot, which says the document is shown
  const first = page.texts()[0].replace(',"shown":true', '');
  page.clear();
  assert.deepEqual(pushTimes(page, 2000), [[500, 1], [1000, 1], [1500, 1], [2000, 1]]);
  assert.equal(ink.generation, 1);
  assert.ok(page.posted.every((p) => p.channel === 'webkit' && p.text === first)); // same post path, same snapshot
  assert.equal(page.clock.pending, 2); // the throttle window of the t=2000 push and one heartbeat
});

test('heartbeat: a missing document.visibilityState counts as visible', () => {
  const page = examplePage({ visibilityState: null });
  assert.equal(page.document.visibilityState, undefined);
  page.load();
  page.clear();
  assert.deepEqual(pushTimes(page, 1000), [[500, 1], [1000, 1]]);
});

test('heartbeat: every push, whatever caused it, restarts the heartbeat; at most one is pending', () => {
  const page = examplePage();
  const ink = page.load(); // t=0, heartbeat due at t=500
  page.clock.advance(300);
  page.clear();
  page.window.dispatch('resize'); // t=300: generation 2 pushed at once; heartbeat moves to t=800
  page.clock.advance(50);
  page.mutate(); // t=350: generation 3, trailing push at t=400; heartbeat moves to t=900
  assert.deepEqual(page.messages().map((m) => m.generation), [2]);
  page.clear();
  assert.deepEqual(pushTimes(page, 1050), [[400, 3], [900, 3], [1400, 3]]); // nothing at t=500 or t=800
  page.clock.advance(100); // t=1500, the throttle window of the t=1400 push has closed
  assert.equal(page.clock.pending, 1); // the heartbeat due at t=1900 only
  page.clear();
  ink.pushRegions(); // t=1500: heartbeat moves to t=2000
  assert.equal(page.clock.pending, 2); // a throttle window and one heartbeat, not two
  assert.deepEqual(pushTimes(page, 1000), [[2000, 3], [2500, 3]]);
  assert.equal(ink.generation, 3);
});

test('heartbeat: a hidden document gets none; visible again pushes at once and resumes', () => {
  const page = examplePage();
  const ink = page.load();
  assert.equal(page.document.listenersFor('visibilitychange').length, 1);
  page.clock.advance(600); // heartbeat at t=500, next due at t=1000
  page.clear();
  page.setVisibility('hidden'); // t=600
  assert.equal(page.clock.pending, 0);
  assert.deepEqual(pushTimes(page, 5000), []);
  page.window.dispatch('resize'); // t=5600: a layout change still pushes, but restarts no heartbeat
  assert.deepEqual(page.messages().map((m) => m.generation), [2]);
  page.clear();
  assert.deepEqual(pushTimes(page, 3000), []); // t=8600
  page.setVisibility('visible'); // pushed at once (no throttle window open), heartbeat from here
  assert.deepEqual(page.messages().map((m) => m.generation), [2]);
  page.clear();
  assert.deepEqual(pushTimes(page, 1000), [[9100, 2], [9600, 2]]);
  assert.equal(ink.generation, 2);
});

test('heartbeat: becoming visible inside a throttle window pushes at its end', () => {
  const page = examplePage();
  page.load();
  page.setVisibility('hidden'); // t=0, inside the initial push's window
  page.clock.advance(1000);
  page.clear();
  page.window.dispatch('resize'); // t=1000: generation 2 at once, window until t=1100
  page.clock.advance(50);
  page.clear();
  page.setVisibility('visible'); // t=1050: throttled
  assert.deepEqual(page.texts(), []);
  assert.deepEqual(pushTimes(page, 1050), [[1100, 2], [1600, 2], [2100, 2]]);
});

test('heartbeat: configure({maxAge}) changes the interval from the next push on', () => {
  const page = examplePage();
  const ink = page.load(); // t=0, heartbeat due at t=500
  page.clock.advance(100);
  page.clear();
  ink.configure({ maxAge: 300 }); // t=100: the pending heartbeat keeps its time
  assert.deepEqual(pushTimes(page, 900), [[500, 1], [650, 1], [800, 1], [950, 1]]);
  assert.ok(page.messages().every((m) => m.maxAge === 300));
  page.clear();
  ink.configure({ maxAge: 2000 }); // t=1000: the heartbeat due at t=1100 stays, then every 1000
  assert.deepEqual(pushTimes(page, 2200), [[1100, 1], [2100, 1], [3100, 1]]);
  page.clear();
  ink.configure({ maxAge: 0 }); // t=3200: a snapshot is never fresh, so no heartbeat after the next push
  assert.deepEqual(pushTimes(page, 1000), [[4100, 1]]);
  assert.equal(page.clock.pending, 0);
  assert.deepEqual(pushTimes(page, 5000), []);
  ink.configure({ maxAge: 400 }); // t=9200: resumes at the next push
  ink.pushRegions();
  page.clear();
  assert.deepEqual(pushTimes(page, 600), [[9400, 1], [9600, 1], [9800, 1]]);
});

test('heartbeat: uses the timers captured at install, not ones the page replaces later', () => {
  const page = examplePage();
  page.load();
  page.clear();
  page.run(`
    setTimeout = function () { return 0; };
    clearTimeout = function () {};
  `);
  assert.deepEqual(pushTimes(page, 1000), [[500, 1], [1000, 1]]);
  page.clock.advance(100); // t=1100: the window of the t=1000 push has closed
  page.setVisibility('hidden');
  assert.equal(page.clock.pending, 0); // the real clearTimeout cancelled the heartbeat
});

test('the viewport\'s classic scrollbars are regions, and a hit test on one answers interactive', () => {
  const page = examplePage();
  // A vertical scrollbar 15 wide takes room from the root's client width; no horizontal one.
  page.document.documentElement.clientWidth = 785;
  page.document.documentElement.clientHeight = 600;
  page.scrollTo(0, 300);
  const ink = page.load();
  page.clear();
  ink.pushRegions();
  const snapshot = page.messages().filter((m) => m.type === 'regions').pop();
  const bars = snapshot.regions.filter((r) => typeof r.element === 'string' && r.element.startsWith('scrollbar'));
  assert.deepEqual(bars, [{ x: 785, y: 300, width: 15, height: 600, element: 'scrollbar-vertical' }]);
  page.clear();
  ink.hitTest(request(790, 350, { generation: ink.generation }));
  ink.hitTest(request(700, 350, { generation: ink.generation }));
  assert.deepEqual(page.messages().map((m) => m.interactive), [1, 0]);
});

test('an overlay scrollbar takes no room: a strip along the edge stands for it while the page scrolls that way; none with overlayScrollbar 0', () => {
  const page = examplePage();
  const root = page.document.documentElement;
  Object.assign(root, { clientWidth: 800, clientHeight: 600, scrollWidth: 800, scrollHeight: 4000 });
  const ink = page.load();
  page.clear();
  ink.pushRegions();
  const bars = () => page.messages().filter((m) => m.type === 'regions').pop().regions
    .filter((r) => typeof r.element === 'string' && r.element.startsWith('scrollbar'));
  assert.deepEqual(bars(), [{ x: 788, y: 0, width: 12, height: 600, element: 'scrollbar-vertical' }]);
  ink.configure({ overlayScrollbar: 0 });
  page.clock.advance(1000);
  page.clear();
  ink.pushRegions();
  assert.deepEqual(bars(), []);
});

// Document (see the script's header): each load draws an id and names it in every message.
test('every message carries the document id the load drew from crypto.getRandomValues, readable as ink.document', () => {
  const page = examplePage();
  const ink = page.load();
  ink.hitTest(request(20, 20));
  ink.pushRegions();
  assert.equal(ink.document, DOCUMENT);
  assert.equal(page.randomCalls, 1);
  const messages = page.messages();
  assert.deepEqual(messages.map((m) => m.type), ['regions', 'answer', 'regions']);
  assert.ok(messages.every((m) => m.document === DOCUMENT));
  assert.throws(() => { ink.document = 'ffffffffffffffff'; }, TypeError);
  assert.equal(ink.document, DOCUMENT);
});

test('two loads of the script (two documents) carry different document ids, with the real crypto and with the Math.random fallback', () => {
  const ids = [];
  for (const source of ['webcrypto', 'webcrypto', 'math-random', 'math-random', 'throwing']) {
    const page = createPage({ crypto: false });
    if (source === 'webcrypto') page.window.crypto = globalThis.crypto;
    if (source === 'throwing') page.window.crypto = { getRandomValues() { throw new Error('no entropy'); } };
    const ink = page.load();
    const posted = page.messages();
    assert.equal(posted.length, 1);
    assert.match(ink.document, /^[0-9a-f]{16}$/, source);
    assert.equal(posted[0].document, ink.document, source);
    ids.push(ink.document);
  }
  assert.equal(new Set(ids).size, ids.length, `ids repeat: ${ids}`);
});

test('a page that overrides Math.random or crypto after the script loaded does not change its document id', () => {
  const page = examplePage();
  const ink = page.load();
  page.run(`Math.random = function () { return 0; }; window.crypto = undefined;`);
  page.clear();
  ink.hitTest(request(20, 20));
  assert.deepEqual(page.messages().map((m) => m.document), [DOCUMENT]);
});

// The document rule (issue 51): the page says which document is shown; a replay names its document.
test('shown: the first snapshot says the document is shown, later ones do not; pushRegions(true) and a pageshow from the back/forward cache say it again', () => {
  const page = examplePage();
  const ink = page.load();
  assert.equal(page.messages()[0].shown, true);
  page.clear();
  page.clock.advance(600); // a heartbeat
  assert.ok(page.messages().length >= 1);
  assert.ok(page.messages().every((m) => m.shown === undefined));
  page.clear();
  page.clock.advance(200);
  ink.pushRegions(true);
  assert.deepEqual(page.messages().map((m) => m.shown), [true]);
  page.clear();
  page.clock.advance(200);
  ink.pushRegions();
  assert.deepEqual(page.messages().map((m) => m.shown), [undefined]);
  page.clear();
  page.clock.advance(200);
  // Not from the cache: nothing said.
  page.window.dispatch('pageshow', { persisted: false });
  page.clock.advance(200);
  assert.ok(page.messages().every((m) => m.shown === undefined));
  page.clear();
  const before = ink.generation;
  page.window.dispatch('pageshow', { persisted: true });
  page.clock.advance(200);
  const shown = page.messages().filter((m) => m.shown === true);
  assert.equal(shown.length, 1);
  assert.equal(shown[0].document, DOCUMENT);
  assert.ok(shown[0].generation > before, 'a snapshot of its earlier life is older');
});

test('a replay naming another document is refused whole and replay() returns false; one naming this document, or none, is taken', () => {
  const page = examplePage();
  const ink = page.load();
  const events = [{ phase: 'down', x: 20, y: 20, t: 1 }, { phase: 'up', x: 20, y: 20, t: 1.05 }];
  assert.equal(ink.replay({ type: 'replay', touch: 1, pointerType: 'touch', document: 'ffffffffffffffff', events }), false);
  assert.equal(ink.replayPending, 0);
  assert.equal(ink.replay({ type: 'replay', touch: 2, pointerType: 'touch', document: DOCUMENT, events }), undefined);
  assert.ok(ink.replayPending >= 0);
  assert.equal(ink.replay({ type: 'replay', touch: 3, pointerType: 'touch', events }), undefined);
});

test('stop(): the native side went away: no heartbeat, no push, no answer is posted any more', () => {
  const page = examplePage();
  const ink = page.load();
  page.clear();
  assert.equal(ink.stop(), true);
  page.clock.advance(3000);               // heartbeats would have come every 500 ms
  page.mutate();                          // a layout change
  page.clock.advance(300);
  ink.pushRegions(true);
  ink.hitTest(request(20, 20));
  assert.deepEqual(page.texts(), []);
  assert.equal(page.clock.pending, 0, 'no timer left running');
});
