// Tests for scratchpadInk.replay(batch) in Sources/HitTestBridge/Resources/scratchpad-ink-page.js
// (see "Replay" in its header), run with
//   node --test Tests/PageScript/        (or: node Tests/PageScript/replay.test.mjs)
// The DOM stand-in (dom-stub.mjs) dispatches with capture and bubbling, as a browser does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPage } from './dom-stub.mjs';

const INPUT_TYPES = ['pointerdown', 'pointermove', 'pointerup', 'pointercancel', 'touchstart', 'touchmove', 'touchend',
  'touchcancel', 'mousedown', 'mousemove', 'mouseup', 'click'];

// A page with two boxes side by side and a child inside the first.
function boxesPage(options) {
  const page = createPage(options);
  const a = page.add('div', { id: 'a', rect: { x: 0, y: 0, width: 100, height: 100 } });
  page.add('span', { id: 'a-child', rect: { x: 10, y: 10, width: 20, height: 20 } }, a);
  page.add('div', { id: 'b', rect: { x: 100, y: 0, width: 100, height: 100 } });
  page.add('div', { id: 'low', rect: { x: 0, y: 1000, width: 100, height: 100 } });
  return page;
}

// Records every input event window sees in its capture phase (so before any page handler).
function record(page, types = INPUT_TYPES) {
  const seen = [];
  for (const type of types) {
    page.window.addEventListener(type, (event) => { seen.push(event); }, true);
  }
  return seen;
}
const names = (events) => events.map((e) => `${e.type}@${e.target.id || e.target.tagName}`);

const ev = (phase, x, y, t, extra = {}) => ({ phase, x, y, t, ...extra });
const batch = (touch, events, pointerType = 'touch') => ({ type: 'replay', touch, pointerType, events });

// The page script, with each replay() followed by 100 ms of the page's time: the bound
// within which it dispatches every sample it was handed (see "Pacing").
function paced(page) {
  const ink = page.load();
  return { replay(given) { const result = ink.replay(given); page.clock.advance(100); return result; } };
}

test('a touch drag dispatches pointer then touch events, in sample order, to the down target', () => {
  const page = boxesPage();
  const ink = paced(page);
  const seen = record(page);
  assert.equal(ink.replay(batch(1, [ev('down', 50, 50, 10.0), ev('move', 80, 50, 10.016)])), undefined);
  ink.replay(batch(1, [ev('move', 150, 50, 10.033), ev('up', 150, 50, 10.05)]));
  assert.deepEqual(names(seen), ['pointerdown@a', 'touchstart@a', 'pointermove@a', 'touchmove@a',
    'pointermove@a', 'touchmove@a', 'pointerup@a', 'touchend@a']); // over b, still a: implicit capture; no click (moved)
  assert.deepEqual(seen.map((e) => e.scratchpadInkTime), [10.0, 10.0, 10.016, 10.016, 10.033, 10.033, 10.05, 10.05]);
  assert.ok(seen.every((e) => e.scratchpadInkReplayed === true && e.isTrusted === false));
  assert.ok(seen.every((e) => e.bubbles && e.composed));
  assert.deepEqual(page.errors, []);
});

test('positions: page coordinates become client coordinates with the scroll read at each event; screen adds window.screenX/Y', () => {
  const page = boxesPage();
  const ink = paced(page);
  const seen = record(page);
  page.scrollTo(5, 1000);
  page.window.screenX = 7;
  page.window.screenY = 30;
  ink.replay(batch(3, [ev('down', 25, 1020, 1), ev('move', 30.5, 1030.25, 1.01)]));
  page.scrollTo(5, 990); // the page scrolled between batches
  ink.replay(batch(3, [ev('up', 30.5, 1030.25, 1.02)]));
  assert.deepEqual(seen.filter((e) => e.type.startsWith('pointer')).map((e) => [e.type, e.target.id, e.clientX, e.clientY, e.screenX, e.screenY]), [
    ['pointerdown', 'low', 20, 20, 27, 50],
    ['pointermove', 'low', 25.5, 30.25, 32.5, 60.25],
    ['pointerup', 'low', 25.5, 40.25, 32.5, 70.25],
  ]);
  const touch = seen.find((e) => e.type === 'touchmove').changedTouches[0];
  assert.deepEqual([touch.pageX, touch.pageY, touch.clientX, touch.clientY, touch.screenX, touch.screenY], [30.5, 1030.25, 25.5, 30.25, 32.5, 60.25]);
});

test('pointer fields: id 1000 + touch, type, primary, pressure, button, buttons, cancelable', () => {
  const page = boxesPage();
  const ink = paced(page);
  const seen = record(page, ['pointerdown', 'pointermove', 'pointerup', 'pointercancel']);
  ink.replay(batch(5, [ev('down', 10, 50, 0), ev('move', 12, 50, 0.01, { pressure: 0.8 })], 'pen'));
  ink.replay(batch(6, [ev('down', 150, 50, 0.02)], 'pen')); // a second pen while the first is down: not primary
  ink.replay(batch(5, [ev('up', 12, 50, 0.03, { pressure: 0.7 })], 'pen'));
  ink.replay(batch(6, [ev('cancel', 150, 50, 0.04)], 'pen'));
  const fields = (e) => [e.type, e.pointerId, e.pointerType, e.isPrimary, e.pressure, e.button, e.buttons, e.cancelable, e.width, e.height];
  assert.deepEqual(seen.map(fields), [
    ['pointerdown', 1005, 'pen', true, 0.5, 0, 1, true, 1, 1],
    ['pointermove', 1005, 'pen', true, 0.8, -1, 1, true, 1, 1],
    ['pointerdown', 1006, 'pen', false, 0.5, 0, 1, true, 1, 1],
    ['pointerup', 1005, 'pen', true, 0, 0, 0, true, 1, 1],
    ['pointercancel', 1006, 'pen', false, 0, -1, 0, false, 1, 1],
  ]);
});

test('implicit capture for touch and pen; the element under each point for mouse', () => {
  for (const [pointerType, expected] of [
    ['touch', ['pointerdown@a-child', 'pointermove@a-child', 'pointerup@a-child']],
    ['pen', ['pointerdown@a-child', 'pointermove@a-child', 'pointerup@a-child']],
    ['mouse', ['pointerdown@a-child', 'pointermove@b', 'pointerup@a']],
  ]) {
    const page = boxesPage();
    const ink = paced(page);
    const seen = record(page, ['pointerdown', 'pointermove', 'pointerup']);
    ink.replay(batch(1, [ev('down', 15, 15, 0), ev('move', 150, 50, 0.1), ev('up', 60, 60, 0.2)], pointerType));
    assert.deepEqual(names(seen), expected, pointerType);
  }
});

test('the down target keeps the touch after it moves away or leaves the document; outside the viewport is documentElement', () => {
  const page = boxesPage();
  const ink = paced(page);
  const seen = record(page, ['pointerdown', 'pointermove', 'pointerup']);
  ink.replay(batch(1, [ev('down', 150, 50, 0)]));
  const b = page.document.querySelector('#b');
  b.remove();
  ink.replay(batch(1, [ev('move', 160, 50, 0.1), ev('up', 170, 50, 0.2)]));
  assert.deepEqual(seen.map((e) => e.target), [b, b, b]);
  seen.length = 0;
  ink.replay(batch(2, [ev('down', 50, 5000, 1), ev('up', 50, 5000, 1.1)], 'mouse'));
  assert.deepEqual(seen.map((e) => e.target), [page.document.documentElement, page.document.documentElement]);
});

test('mouse and pen get compatibility mouse events, touch gets touch events; a cancelled pointerdown stops the mouse events', () => {
  const page = boxesPage();
  const ink = paced(page);
  const seen = record(page);
  ink.replay(batch(1, [ev('down', 50, 50, 0), ev('move', 80, 50, 0.05), ev('up', 90, 50, 0.1)], 'mouse'));
  assert.deepEqual(seen.map((e) => e.type), ['pointerdown', 'mousedown', 'pointermove', 'mousemove', 'pointerup', 'mouseup']);
  assert.deepEqual(seen.filter((e) => e.type.startsWith('mouse')).map((e) => [e.button, e.buttons, e.detail]), [[0, 1, 1], [-1, 1, 0], [0, 0, 1]]);
  seen.length = 0;
  ink.replay(batch(2, [ev('down', 50, 50, 1), ev('cancel', 50, 50, 1.1)], 'pen'));
  assert.deepEqual(seen.map((e) => e.type), ['pointerdown', 'mousedown', 'pointercancel']); // no mouse event for cancel
  seen.length = 0;
  const cancel = (e) => e.preventDefault();
  page.window.addEventListener('pointerdown', cancel);
  ink.replay(batch(3, [ev('down', 50, 50, 2), ev('move', 80, 50, 2.05), ev('up', 90, 50, 2.1)], 'mouse'));
  ink.replay(batch(4, [ev('down', 50, 50, 3), ev('move', 80, 50, 3.05), ev('cancel', 90, 50, 3.1)], 'touch'));
  assert.deepEqual(seen.map((e) => e.type), ['pointerdown', 'pointermove', 'pointerup',
    'pointerdown', 'touchstart', 'pointermove', 'touchmove', 'pointercancel', 'touchcancel']); // touch events are not stopped
  assert.equal(seen.find((e) => e.type === 'touchcancel').cancelable, false);
});

test('touch events: changedTouches holds the touch; touches and targetTouches the live replayed touches', () => {
  const page = boxesPage();
  const ink = paced(page);
  const seen = record(page, ['touchstart', 'touchmove', 'touchend']);
  ink.replay(batch(1, [ev('down', 50, 50, 0)]));
  ink.replay(batch(2, [ev('down', 150, 50, 0.01)]));
  ink.replay(batch(7, [ev('down', 60, 50, 0.015)], 'pen')); // not a touch: in no touch list
  ink.replay(batch(1, [ev('move', 55, 50, 0.02)]));
  ink.replay(batch(1, [ev('up', 55, 50, 0.03)]));
  ink.replay(batch(2, [ev('up', 150, 50, 0.04)]));
  const ids = (list) => list.map((t) => t.identifier);
  assert.deepEqual(seen.map((e) => [e.type, ids(e.changedTouches), ids(e.touches), ids(e.targetTouches)]), [
    ['touchstart', [1001], [1001], [1001]],
    ['touchstart', [1002], [1002, 1001], [1002]],
    ['touchmove', [1001], [1001, 1002], [1001]],
    ['touchend', [1001], [1002], []],
    ['touchend', [1002], [], []],
  ]);
  const first = seen[0].changedTouches[0];
  assert.equal(first.target.id, 'a');
  assert.equal(first.force, 0.5);
  assert.equal(seen[3].changedTouches[0].force, 0);
});

test('a tap (same element, within 10 px and 0.5 s) ends with a click; a drag, a slow press, a cancel or leaving the element do not', () => {
  const clicks = (pointerType, events) => {
    const page = boxesPage();
    const ink = paced(page);
    const seen = record(page, ['click', 'pointerup']);
    ink.replay(batch(1, events, pointerType));
    return names(seen);
  };
  for (const pointerType of ['touch', 'pen', 'mouse']) {
    assert.deepEqual(clicks(pointerType, [ev('down', 15, 15, 0), ev('move', 20, 20, 0.1), ev('up', 22, 22, 0.5)]),
      ['pointerup@a-child', 'click@a-child'], pointerType);
    assert.deepEqual(clicks(pointerType, [ev('down', 15, 15, 0), ev('move', 26, 15, 0.1), ev('up', 15, 15, 0.2)]),
      ['pointerup@a-child'], pointerType); // went 11 px away
    assert.deepEqual(clicks(pointerType, [ev('down', 15, 15, 0), ev('up', 15, 15, 0.51)]), ['pointerup@a-child'], pointerType);
    assert.deepEqual(clicks(pointerType, [ev('down', 15, 15, 0), ev('cancel', 15, 15, 0.1)]), [], pointerType);
  }
  // Up on the parent, 8 px away: not inside the down target.
  assert.deepEqual(clicks('touch', [ev('down', 29, 15, 0), ev('up', 37, 15, 0.1)]), ['pointerup@a-child']);
  assert.deepEqual(clicks('mouse', [ev('down', 29, 15, 0), ev('up', 37, 15, 0.1)]), ['pointerup@a']);
  // Down on the parent, up on its child: inside.
  assert.deepEqual(clicks('touch', [ev('down', 35, 15, 0), ev('up', 28, 15, 0.1)]), ['pointerup@a', 'click@a']);
});

test('the replay marks are own, enumerable, read-only properties; the time is the original t', () => {
  const page = boxesPage();
  const ink = paced(page);
  const seen = record(page, ['pointerdown']);
  ink.replay(batch(1, [ev('down', 15, 15, 123456.789012)]));
  const event = seen[0];
  for (const [name, value] of [['scratchpadInkReplayed', true], ['scratchpadInkTime', 123456.789012]]) {
    const descriptor = Object.getOwnPropertyDescriptor(event, name);
    assert.deepEqual(descriptor, { value, writable: false, enumerable: true, configurable: false });
  }
  assert.throws(() => { 'use strict'; event.scratchpadInkTime = 0; }, TypeError);
  assert.equal(event.scratchpadInkTime, 123456.789012);
});

test('every replayed event is bracketed by scratchpadinkreplaystart/end on window, detail t, for listeners in other worlds', () => {
  const page = boxesPage();
  const ink = paced(page);
  const log = [];
  const globalWindow = page.run('window'); // the script's window: the vm's global proxy of page.window
  for (const type of ['scratchpadinkreplaystart', 'scratchpadinkreplayend']) {
    page.window.addEventListener(type, (e) => log.push([type.slice(19), e.detail, e.bubbles, e.target === globalWindow]));
  }
  page.document.addEventListener('pointerdown', (e) => log.push([e.type, e.scratchpadInkTime]));
  page.document.addEventListener('touchstart', (e) => log.push([e.type, e.scratchpadInkTime]));
  ink.replay(batch(1, [ev('down', 15, 15, 4.25)]));
  assert.deepEqual(log, [
    ['start', 4.25, false, true], ['pointerdown', 4.25], ['end', 4.25, false, true],
    ['start', 4.25, false, true], ['touchstart', 4.25], ['end', 4.25, false, true],
  ]);
});

test('invalid batches dispatch nothing, remember nothing and do not throw', () => {
  const page = boxesPage();
  const ink = paced(page);
  const seen = record(page);
  const down = ev('down', 15, 15, 0);
  const throwing = { type: 'replay', touch: 1, pointerType: 'touch', get events() { throw new Error('boom'); } };
  const throwingEvent = [down, { phase: 'move', x: 1, get y() { throw new Error('boom'); }, t: 1 }];
  const invalid = [
    null, undefined, 42, 'replay', JSON.stringify(batch(1, [down])), [], throwing,
    { ...batch(1, [down]), type: 'Replay' },
    { ...batch(1, [down]), type: 'hitTest' },
    batch(0, [down]), batch(-1, [down]), batch(1.5, [down]), batch('1', [down]), batch(2 ** 53, [down]), batch(NaN, [down]),
    batch(1, [down], 'finger'), { ...batch(1, [down]), pointerType: undefined }, batch(1, [down], 'TOUCH'),
    batch(1, []), batch(1, { 0: down, length: 1 }), batch(1, down), batch(1, undefined),
    batch(1, [down, ev('jump', 1, 1, 1)]),
    batch(1, [down, ev('move', NaN, 1, 1)]), batch(1, [down, ev('move', 1, Infinity, 1)]), batch(1, [down, ev('move', 1, 1, NaN)]),
    batch(1, [down, ev('move', '1', 1, 1)]), batch(1, [ev('down', 15, 15, '0')]), batch(1, [down, ev('move', 1, 1)]),
    batch(1, [ev('down', 15, 15, 0, { pressure: 1.01 })]), batch(1, [ev('down', 15, 15, 0, { pressure: -0.1 })]),
    batch(1, [ev('down', 15, 15, 0, { pressure: '0.5' })]), batch(1, [ev('down', 15, 15, 0, { pressure: null })]),
    batch(1, [down, null]), batch(1, [down, 7]), batch(1, throwingEvent),
    batch(1, [down, ev('down', 16, 16, 1)]), // a second down
    batch(1, [down, ev('up', 15, 15, 1), ev('move', 15, 15, 2)]), // an event after up
    batch(1, [down, ev('cancel', 15, 15, 1), ev('up', 15, 15, 2)]),
    batch(1, [ev('move', 15, 15, 0)]), // a touch that never went down
    batch(1, [ev('up', 15, 15, 0)]),
  ];
  for (const bad of invalid) {
    assert.doesNotThrow(() => ink.replay(bad));
  }
  assert.doesNotThrow(() => ink.replay());
  assert.deepEqual(names(seen), []);
  // Nothing was remembered: touch 1 is not live, so a valid first batch is taken.
  ink.replay(batch(1, [down]));
  assert.deepEqual(names(seen), ['pointerdown@a-child', 'touchstart@a-child']);
  seen.length = 0;
  // Against the live touch: a second down, another pointerType, a move batch after its end.
  ink.replay(batch(1, [ev('down', 15, 15, 1)]));
  ink.replay(batch(1, [ev('move', 15, 15, 1)], 'pen'));
  assert.deepEqual(names(seen), []);
  ink.replay(batch(1, [ev('up', 15, 15, 2)]));
  ink.replay(batch(1, [ev('move', 15, 15, 3)]));
  assert.deepEqual(names(seen), ['pointerup@a-child', 'touchend@a-child']);
  assert.deepEqual(page.errors, []);
});

test('cap: at most 4096 events a batch; a longer batch is ignored whole', () => {
  const page = boxesPage();
  const ink = paced(page);
  const seen = record(page, ['pointerdown', 'pointermove', 'pointerup']);
  const moves = (n, t0) => Array.from({ length: n }, (_, i) => ev('move', 20 + (i % 50), 20, t0 + i / 1000));
  ink.replay(batch(1, [ev('down', 20, 20, 0), ...moves(4095, 0.001)]));
  assert.equal(seen.length, 4096);
  ink.replay(batch(1, moves(4097, 10)));
  assert.equal(seen.length, 4096);
  ink.replay(batch(1, [...moves(4095, 20), ev('up', 20, 20, 30)]));
  assert.equal(seen.length, 8192);
  assert.equal(seen.at(-1).type, 'pointerup');
  assert.equal(seen.at(-1).scratchpadInkTime, 30);
});

test('cap: at most 32 live replayed touches; an ended touch frees its place', () => {
  const page = boxesPage();
  const ink = paced(page);
  const seen = record(page, ['pointerdown', 'pointerup']);
  for (let touch = 1; touch <= 33; touch += 1) {
    ink.replay(batch(touch, [ev('down', touch, 50, touch)], touch % 2 ? 'touch' : 'pen'));
  }
  assert.equal(seen.length, 32);
  assert.ok(!seen.some((e) => e.pointerId === 1033));
  ink.replay(batch(33, [ev('move', 40, 50, 34)])); // 33 never went down
  ink.replay(batch(5, [ev('up', 5, 50, 35)]));
  ink.replay(batch(33, [ev('down', 33, 50, 36)]));
  ink.replay(batch(34, [ev('down', 34, 50, 37)])); // full again
  assert.deepEqual(seen.slice(32).map((e) => [e.type, e.pointerId]), [['pointerup', 1005], ['pointerdown', 1033]]);
});

test('touch ids beyond the 32-bit pointerId range are folded; a fold that hits a live touch steps past it', () => {
  const page = boxesPage();
  const ink = paced(page);
  const seen = record(page, ['pointerdown']);
  const span = 2 ** 31 - 1 - 1000;
  ink.replay(batch(span, [ev('down', 1, 1, 0)]));
  ink.replay(batch(span + 7, [ev('down', 1, 1, 0)]));
  ink.replay(batch(Number.MAX_SAFE_INTEGER, [ev('down', 1, 1, 0)]));
  ink.replay(batch(7, [ev('down', 1, 1, 0)])); // folds onto the same pointerId as span + 7: the next free one
  assert.deepEqual(seen.map((e) => e.pointerId), [2 ** 31 - 1, 1007, 1000 + (Number.MAX_SAFE_INTEGER % span), 1008]);
});

test('without Touch or TouchEvent the pointer events still go; without PointerEvent the legacy events still go', () => {
  for (const omitEvents of [['Touch'], ['TouchEvent']]) {
    const page = boxesPage({ omitEvents });
    const ink = paced(page);
    const seen = record(page);
    ink.replay(batch(1, [ev('down', 15, 15, 0), ev('up', 15, 15, 0.1)]));
    assert.deepEqual(names(seen), ['pointerdown@a-child', 'pointerup@a-child', 'click@a-child'], String(omitEvents));
  }
  const page = boxesPage({ omitEvents: ['PointerEvent'] });
  const ink = paced(page);
  const seen = record(page);
  ink.replay(batch(1, [ev('down', 15, 15, 0), ev('up', 15, 15, 0.1)]));
  ink.replay(batch(2, [ev('down', 15, 15, 1), ev('up', 15, 15, 1.1)], 'mouse'));
  assert.deepEqual(names(seen), ['touchstart@a-child', 'touchend@a-child', 'click@a-child',
    'mousedown@a-child', 'mouseup@a-child', 'click@a-child']);
});

test('where new Touch is illegal and TouchEvent takes only TouchLists (WebKit), touches come from document.createTouch and createTouchList', () => {
  const page = boxesPage({ webkitTouch: true });
  const ink = paced(page);
  const seen = record(page, ['touchstart', 'touchmove', 'touchend']);
  page.scrollTo(0, 1000);
  ink.replay(batch(1, [ev('down', 20.6, 1020.4, 0, { pressure: 0.25 })]));
  ink.replay(batch(2, [ev('down', 50, 1050, 0.01)]));
  ink.replay(batch(1, [ev('move', 30, 1030, 0.02), ev('up', 30, 1030, 0.03)]));
  const ids = (list) => [...list].map((t) => t.identifier);
  assert.deepEqual(seen.map((e) => [e.type, e.target.id, ids(e.changedTouches), ids(e.touches), e.scratchpadInkTime]), [
    ['touchstart', 'low', [1001], [1001], 0],
    ['touchstart', 'low', [1002], [1002, 1001], 0.01],
    ['touchmove', 'low', [1001], [1001, 1002], 0.02],
    ['touchend', 'low', [1001], [1002], 0.03],
  ]);
  const first = seen[0].changedTouches[0];
  assert.deepEqual([first.pageX, first.pageY, first.clientX, first.clientY, first.force, first.target.id], [20, 1020, 20, 20, 0.25, 'low']);
});

test('a page handler that throws, or replaces the event constructors afterwards, does not stop or change the replay', () => {
  const page = boxesPage();
  const ink = paced(page);
  page.run(`
    window.addEventListener('pointerdown', function () { throw new Error('page bug'); });
    PointerEvent = function () { throw new Error('replaced'); };
    Touch = undefined;
  `);
  const seen = record(page);
  ink.replay(batch(1, [ev('down', 15, 15, 0), ev('up', 15, 15, 0.1)]));
  assert.deepEqual(names(seen), ['pointerdown@a-child', 'touchstart@a-child', 'pointerup@a-child', 'touchend@a-child', 'click@a-child']);
  assert.equal(page.errors.length, 1);
});

test('replay is part of the frozen api', () => {
  const page = boxesPage();
  const ink = page.load();
  assert.equal(typeof ink.replay, 'function');
  assert.throws(() => { ink.replay = () => {}; }, TypeError);
  assert.deepEqual(Object.keys(ink).sort(), ['configure', 'document', 'generation', 'hitTest', 'pushRegions', 'replay', 'replayPending', 'stop']);
});

test('pacing: a backlog is spread over time at its own gaps, at least twice as fast, all of it within 100 ms; a live sample goes at once', () => {
  const page = boxesPage();
  const ink = page.load();
  const times = [];
  page.window.addEventListener('pointermove', () => { times.push(page.clock.now); }, true);
  page.window.addEventListener('pointerdown', () => { times.push(page.clock.now); }, true);
  // A short backlog (48 ms of samples): the down at once, the moves at half their gaps.
  ink.replay(batch(1, [ev('down', 10, 50, 1.0), ev('move', 12, 50, 1.016), ev('move', 14, 50, 1.032), ev('move', 16, 50, 1.048)]));
  assert.deepEqual(times, [0]);
  assert.equal(ink.replayPending, 3);
  page.clock.advance(30);
  assert.deepEqual(times.map(Math.round), [0, 8, 16, 24]);
  assert.equal(ink.replayPending, 0);
  // A live sample 16 ms later (the replay is caught up): dispatched inside replay().
  page.clock.advance(2);
  ink.replay(batch(1, [ev('move', 18, 50, 1.064)]));
  assert.deepEqual(times.map(Math.round), [0, 8, 16, 24, 32]);
  // A long backlog (625 ms): compressed so the last is due 100 ms after it was handed over.
  times.length = 0;
  const start = page.clock.now;
  const moves = [];
  for (let i = 1; i <= 10; i++) moves.push(ev('move', 20 + 2 * i, 60, 2 + 0.0625 * i));
  ink.replay(batch(2, [ev('down', 20, 60, 2), ...moves]));
  page.clock.advance(99);
  assert.equal(ink.replayPending, 1);
  page.clock.advance(1);
  assert.equal(ink.replayPending, 0);
  assert.deepEqual(times.map((t) => Math.round(t - start)), [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
  assert.deepEqual(page.errors, []);
});

test('pacing: a batch that arrives while samples wait goes after them, in order, and nothing waits past 100 ms from its hand-over', () => {
  const page = boxesPage();
  const ink = page.load();
  const seen = [];
  page.window.addEventListener('pointermove', (e) => { seen.push([e.clientX, page.clock.now]); }, true);
  const moves = [];
  for (let i = 1; i <= 20; i++) moves.push(ev('move', i, 50, 1 + 0.016 * i));
  ink.replay(batch(1, [ev('down', 0, 50, 1), ...moves])); // 320 ms of backlog
  page.clock.advance(50);
  const handed = page.clock.now;
  ink.replay(batch(1, [ev('move', 21, 50, 1.336), ev('up', 21, 50, 1.35)]));
  page.clock.advance(100);
  assert.equal(ink.replayPending, 0);
  assert.deepEqual(seen.map((s) => s[0]), Array.from({ length: 21 }, (_, i) => i + 1));
  assert.ok(seen.every((s, i) => i === 0 || s[1] >= seen[i - 1][1]));
  assert.ok(seen[seen.length - 1][1] <= handed + 100);
  assert.ok(new Set(seen.map((s) => s[1])).size >= 10, 'spread over many tasks');
});

// The page's cooperation shim asks with these (scratchpad-ink-capture.js).
function ask(page, element, what, pointerId) {
  const event = new page.window.CustomEvent(`scratchpadink${what}pointercapture`, { detail: pointerId, cancelable: true, composed: true });
  return !element.dispatchEvent(event);
}

test('pointer capture: the shim\'s requests for an active replayed pointer are answered; got/lostpointercapture; later events go to the capturing element', () => {
  const page = boxesPage();
  const ink = paced(page);
  const [a, b] = [page.document.querySelector('#a'), page.document.querySelector('#b')];
  const seen = record(page, ['pointerdown', 'pointermove', 'pointerup', 'gotpointercapture', 'lostpointercapture', 'mousemove', 'mouseup']);
  const answers = [];
  // Before its down the pointer is not active: not answered (the shim throws NotFoundError).
  answers.push(ask(page, b, 'set', 1001));
  b.addEventListener('pointerdown', () => {}, false);
  page.window.addEventListener('pointerdown', (e) => {
    answers.push(ask(page, b, 'set', e.pointerId), ask(page, b, 'has', e.pointerId), ask(page, a, 'has', e.pointerId));
  }, false);
  // A mouse down on a, then moves over a: without capture they would go to a.
  ink.replay(batch(1, [ev('down', 150, 50, 1), ev('move', 20, 50, 1.01), ev('move', 30, 50, 1.02)], 'mouse'));
  assert.deepEqual(answers, [false, true, true, false]);
  assert.deepEqual(names(seen), ['pointerdown@b', 'gotpointercapture@b', 'pointermove@b', 'mousemove@b', 'pointermove@b', 'mousemove@b']);
  assert.ok(seen.every((e) => e.scratchpadInkReplayed === true && (!e.type.startsWith('pointer') || e.pointerId === 1001)));
  assert.equal(seen[1].cancelable, false);
  // Released: the next event goes where it would have, after lostpointercapture.
  assert.equal(ask(page, b, 'release', 1001), true);
  assert.equal(ask(page, b, 'has', 1001), false);
  ink.replay(batch(1, [ev('move', 40, 50, 1.03)], 'mouse'));
  assert.deepEqual(names(seen.slice(6)), ['lostpointercapture@b', 'pointermove@a', 'mousemove@a']);
  // Captured again, then up: the up goes to the capture, then lostpointercapture; the pointer is no longer active.
  assert.equal(ask(page, b, 'set', 1001), true);
  ink.replay(batch(1, [ev('up', 40, 50, 1.04)], 'mouse'));
  assert.deepEqual(names(seen.slice(9)), ['gotpointercapture@b', 'pointerup@b', 'lostpointercapture@b', 'mouseup@b']);
  assert.equal(ask(page, b, 'set', 1001), false);
  assert.equal(ask(page, b, 'release', 1001), false);
  // Other pointer ids, or a non-number, are never answered.
  assert.equal(ask(page, b, 'set', 1), false);
  assert.equal(ask(page, b, 'set', '1001'), false);
  assert.deepEqual(page.errors, []);
});

test('pointer capture: a touch captured by another element sends its pointer events there; its touch events stay with the down target', () => {
  const page = boxesPage();
  const ink = paced(page);
  const b = page.document.querySelector('#b');
  const seen = record(page, ['pointerdown', 'pointermove', 'pointerup', 'touchstart', 'touchmove', 'touchend', 'gotpointercapture', 'lostpointercapture']);
  page.window.addEventListener('pointerdown', (e) => { ask(page, b, 'set', e.pointerId); }, false);
  ink.replay(batch(4, [ev('down', 50, 50, 1), ev('move', 60, 50, 1.01), ev('up', 60, 50, 1.02)]));
  assert.deepEqual(names(seen), ['pointerdown@a', 'touchstart@a', 'gotpointercapture@b', 'pointermove@b', 'touchmove@a',
    'pointerup@b', 'lostpointercapture@b', 'touchend@a']);
});

test('where neither new Touch nor document.createTouch works, touch events come from document.createEvent and initTouchEvent (either argument order); none where the event would have no lists', () => {
  {
    const page = boxesPage({ webkitTouch: true, omitLegacy: ['createTouch'], createEvent: 'none' });
    const ink = paced(page);
    const seen = record(page, ['pointerdown', 'touchstart', 'touchmove', 'touchend']);
    ink.replay(batch(1, [ev('down', 50, 50, 1), ev('move', 60, 50, 1.01), ev('up', 60, 50, 1.02)]));
    assert.deepEqual(names(seen), ['pointerdown@a']);
  }
  for (const order of ['ios', 'lists-first']) {
    const page = boxesPage({ webkitTouch: true, omitLegacy: ['createTouch'], createEvent: order });
    const ink = paced(page);
    const seen = record(page, ['pointerdown', 'touchstart', 'touchmove', 'touchend']);
    ink.replay(batch(1, [ev('down', 50, 50, 1), ev('move', 60, 50, 1.01), ev('up', 60, 50, 1.02)]));
    assert.deepEqual(names(seen), ['pointerdown@a', 'touchstart@a', 'touchmove@a', 'touchend@a'], order);
    const touch = seen.filter((e) => e.type.startsWith('touch'));
    assert.ok(touch.every((e) => e.bubbles && e.isTrusted === false && e.scratchpadInkReplayed === true), order);
    assert.ok(touch.every((e) => e.changedTouches.length === 0), order); // no Touch could be made: the phase, no positions
    assert.deepEqual(page.errors, [], order);
  }
  // With createTouch but no TouchEvent constructor (old WebKit): the touches go in, through initTouchEvent.
  const page = boxesPage({ webkitTouch: true, omitEvents: ['TouchEvent'], createEvent: 'ios' });
  const ink = paced(page);
  const seen = record(page, ['touchstart', 'touchend']);
  ink.replay(batch(1, [ev('down', 50, 50, 1), ev('up', 52, 50, 1.01)]));
  assert.deepEqual(seen.map((e) => [e.type, e.changedTouches.length, e.touches.length, e.changedTouches[0].identifier, e.changedTouches[0].pageX]),
    [['touchstart', 1, 1, 1001, 50], ['touchend', 1, 0, 1001, 52]]);
});

test('pointer ids: a replayed touch steps past an id a native pointer has down, and past a live replayed one; the id is free again after the native up', () => {
  const page = boxesPage();
  const ink = paced(page);
  const seen = record(page, ['pointerdown', 'pointerup']);
  // The platform has a pointer down under 1001 (a trusted event, as the browser dispatches it).
  const native = (type, pointerId) => page.window.dispatchEvent({ type, pointerId, isTrusted: true, bubbles: true,
    preventDefault() {}, stopPropagation() { this.propagationStopped = true; } });
  native('pointerdown', 1001);
  ink.replay(batch(1, [ev('down', 50, 50, 1.0)]));           // 1000 + 1 is the native pointer's: 1002
  ink.replay(batch(2, [ev('down', 150, 50, 1.0)]));          // 1000 + 2 is touch 1's now: 1003
  const replayed = seen.filter((e) => e.isTrusted === false);
  assert.deepEqual(replayed.map((e) => e.pointerId), [1002, 1003]);
  ink.replay(batch(1, [ev('up', 50, 50, 1.1)]));
  ink.replay(batch(2, [ev('up', 150, 50, 1.1)]));
  native('pointerup', 1001);
  ink.replay(batch(1, [ev('down', 50, 50, 2.0)]));           // nothing down under 1001 any more
  const again = seen.filter((e) => e.isTrusted === false && e.type === 'pointerdown');
  assert.equal(again[again.length - 1].pointerId, 1001);
  // An untrusted pointerdown (a page's own forgery) never reserves an id.
  page.window.dispatchEvent({ type: 'pointerdown', pointerId: 1005, isTrusted: false, bubbles: true });
  ink.replay(batch(5, [ev('down', 50, 50, 3.0)]));
  const last = seen.filter((e) => e.isTrusted === false && e.type === 'pointerdown' && e.scratchpadInkReplayed);
  assert.equal(last[last.length - 1].pointerId, 1005);
  assert.deepEqual(page.errors, []);
});

// Issue 51, case 9: page pointer ids are unique per page, not per native loop.
test('pointer ids: a second native loop (another source) over the same document never goes down under a pointer id the page has seen, even while the first loop left a touch down', () => {
  const page = boxesPage();
  const ink = paced(page);
  const seen = record(page, ['pointerdown', 'pointermove']);
  const from = (source, touch, events) => ({ type: 'replay', touch, pointerType: 'touch', source, events });
  ink.replay(from('00000000000000a1', 1, [ev('down', 50, 50, 1.0), ev('up', 50, 50, 1.05)]));
  ink.replay(from('00000000000000a1', 2, [ev('down', 150, 50, 1.1)]));   // the first loop leaves touch 2 down on the page
  // A new loop (a replaced controller) numbers its touches from 1 again.
  ink.replay(from('00000000000000b2', 2, [ev('down', 50, 50, 2.0), ev('move', 60, 50, 2.01)]));
  ink.replay(from('00000000000000b2', 1, [ev('down', 50, 50, 2.1)]));
  const downs = seen.filter((e) => e.isTrusted === false && e.type === 'pointerdown').map((e) => e.pointerId);
  assert.equal(downs.length, 4, 'the new loop\'s touch 2 is its own touch, not refused as a live one');
  assert.deepEqual(downs.slice(0, 2), [1001, 1002]);
  assert.ok(downs[2] > 1002 && downs[3] > downs[2], `new pointer ids above every one used: ${downs}`);
  const moves = seen.filter((e) => e.isTrusted === false && e.type === 'pointermove').map((e) => e.pointerId);
  assert.ok(!moves.includes(1002), 'the new loop never moves the old loop\'s pointer');
  assert.deepEqual(page.errors, []);
});

// Issue 52: a tap the page claimed late arrives as one batch (down, moves, up). Paced, its
// pointerup and click ran on the script's timer, outside the host's evaluation, and lost the
// evaluation's user activation (WebKit evaluates with a forced user gesture). A whole tap is
// dispatched inside replay(); a drag is still paced.
test('a late-claimed whole tap is dispatched inside replay(), click included; a drag of the same length is paced', () => {
  const page = boxesPage();
  const ink = page.load();   // no clock advanced: only what replay() itself dispatches
  const seen = record(page, ['pointerdown', 'pointerup', 'click']);
  ink.replay(batch(1, [ev('down', 50, 50, 10.0), ev('move', 52, 51, 10.05), ev('move', 53, 51, 10.1), ev('up', 53, 51, 10.2)]));
  assert.deepEqual(names(seen), ['pointerdown@a', 'pointerup@a', 'click@a']);
  assert.equal(ink.replayPending, 0);
  seen.length = 0;
  ink.replay(batch(2, [ev('down', 50, 50, 11.0), ev('move', 90, 50, 11.05), ev('move', 130, 50, 11.1), ev('up', 150, 50, 11.2)]));
  assert.deepEqual(names(seen), ['pointerdown@a']);   // the drag's first sample at once, the rest paced
  assert.ok(ink.replayPending > 0);
  page.clock.advance(100);
  assert.deepEqual(names(seen), ['pointerdown@a', 'pointerup@a']);
  assert.deepEqual(page.errors, []);
});

test('a whole tap arriving while a drag still waits goes inside replay() after the drag\'s waiting samples, in order', () => {
  const page = boxesPage();
  const ink = page.load();
  const seen = record(page, ['pointerdown', 'pointermove', 'pointerup', 'click']);
  ink.replay(batch(1, [ev('down', 150, 50, 1.0), ev('move', 160, 50, 1.05), ev('move', 170, 50, 1.1)]));
  assert.ok(ink.replayPending > 0);
  ink.replay(batch(2, [ev('down', 50, 50, 1.12), ev('up', 50, 50, 1.2)]));
  assert.equal(ink.replayPending, 0);
  assert.deepEqual(names(seen), ['pointerdown@b', 'pointermove@b', 'pointermove@b', 'pointerdown@a', 'pointerup@a', 'click@a']);
});
