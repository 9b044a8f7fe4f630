/*
 * scratchpad-ink-page.js — the page side of the ScratchpadInk hit-test bridge.
 *
 * A native ink canvas sits over an exercise web page. For each touch-down the native
 * side asks this script whether an interactive element lies under the touch; the script
 * also pushes snapshots of the page's interactive rectangles so the native side can
 * answer from a cache while they are fresh. A self-contained classic script: no modules,
 * no build step, no dependencies. It installs a frozen `window.scratchpadInk`:
 *
 *   hitTest(request)    answer one question (below); returns nothing, never throws
 *   configure(options)  { selector, maxAge, throttle, maxRegions }; invalid values (and
 *                       selectors the browser rejects) are ignored; a new selector counts
 *                       as a layout change
 *   pushRegions()       post a snapshot now
 *   generation          the page's layout generation (read-only)
 *
 * Messages in (from the native side, as a JavaScript object):
 *   {"type":"hitTest","id":"<32 lowercase hex chars>","x":<page x>,"y":<page y>,"generation":<int>}
 *   Anything else (wrong type, bad id, non-finite coordinates, generation not a
 *   non-negative integer, not an object) is ignored: nothing is posted.
 *
 * Messages out (each JSON.stringify'd and posted as a string):
 *   {"type":"answer","id":<same id>,"interactive":1 or 0,"generation":<see "Answers and generations">}
 *   {"type":"regions","generation":<int>,"maxAge":<ms number>,"regions":[{"x":..,"y":..,"width":..,"height":..,"element":"<id or omitted>"}...]}
 *   Coordinates are page (document) coordinates; region numbers are rounded to at most
 *   2 decimals; zero-size rectangles are skipped; `element` is the element's id (at most
 *   64 characters) and is omitted when the element has none.
 *
 * Channel: window.webkit.messageHandlers.scratchpadInk.postMessage(string) when present,
 * else window.scratchpadInkHost(string) when it is a function, else the message is
 * dropped. The channel is looked up at every post, so a host may install it later.
 *
 * Generation: starts at 1 and increases by 1 whenever the layout may have changed
 * (window resize; any scroll, seen by a capturing listener on window; DOM mutations;
 * configure()). Each increase schedules a snapshot push, throttled to at most one push
 * per `throttle` ms: a change inside the window schedules a single trailing push that
 * carries the latest generation. One snapshot is pushed once the document is ready.
 *
 * Answers and generations: an answer tests the live DOM at the request's page point, so
 * it stays right through DOM changes as long as the page's coordinate mapping (window
 * scroll, viewport size, zoom, selector) is what it was at the generation the request
 * names. Then the answer carries the request's generation, and the native side takes it,
 * however much the DOM changed meanwhile (a block being dragged; a page that mutates every
 * millisecond). Otherwise (the mapping changed, or the generation is unknown or older than
 * the last 64) the answer carries the page's current generation, and the native side asks
 * again for the current layout.
 *
 * Heartbeat: the native side trusts a snapshot only for its `maxAge`, so a static page
 * must not fall silent. Every snapshot push, whatever caused it (layout change,
 * pushRegions(), the first push, a heartbeat), schedules the next heartbeat `maxAge / 2`
 * ms later, replacing any heartbeat already scheduled: at most one is pending, and it
 * always counts from the latest push. A heartbeat re-pushes a snapshot through the same
 * throttle and post path but does not change the generation (the layout did not change).
 * It runs only while the document is visible (`document.visibilityState` is not
 * 'hidden'; a missing visibilityState counts as visible): when a `visibilitychange` event
 * finds the document hidden, the pending heartbeat is cancelled and none is scheduled;
 * when one finds it visible again, a snapshot is pushed (throttled) and the heartbeat
 * resumes from that push. configure({maxAge}) takes effect from the next push on (the
 * heartbeat already scheduled keeps its time). With maxAge 0 a snapshot is never fresh,
 * so no heartbeat is scheduled; it resumes at the first push after maxAge becomes
 * positive again. Because heartbeats are throttled, pushes never come closer together
 * than `throttle` ms; keep throttle below maxAge / 2 for the cache to stay fresh.
 *
 * Trust: this script runs inside the page, so the page can read, call or imitate it.
 * The native side treats every message as untrusted and validates it (type, id, sizes,
 * numbers) before use. As a best effort against pages that later overwrite globals,
 * the built-ins used here (JSON.stringify, Math.round, Number.isFinite, timers, ...)
 * are captured at install time, and messages are built from prototype-less objects and
 * arrays so that e.g. a page-defined Object.prototype.toJSON cannot rewrite them. A page
 * that runs before this script, or that fakes the DOM (elementFromPoint, rects), can
 * still make it post wrong answers; the native side must not rely on them for safety.
 */
(function () {
  'use strict';

  var w = window;
  if (w.scratchpadInk) { return; } // already installed: keep the first instance

  // Built-ins captured at install time (see "Trust" above).
  var stringify = JSON.stringify;
  var round = Math.round;
  var isFiniteNumber = Number.isFinite;
  var isSafeInteger = Number.isSafeInteger;
  var apply = Reflect.apply;
  var createObject = Object.create;
  var setPrototypeOf = Object.setPrototypeOf;
  var freeze = Object.freeze;
  var defineProperty = Object.defineProperty;
  var regexpExec = RegExp.prototype.exec;
  var stringSlice = String.prototype.slice;
  var charCodeAt = String.prototype.charCodeAt;
  var timeout = w.setTimeout;
  var cancelTimeout = w.clearTimeout;
  var doc = w.document;
  var ID_PATTERN = /^[0-9a-f]{32}$/;

  var options = { selector: '[data-ink-interactive], .interactive', maxAge: 1000, throttle: 100, maxRegions: 5000 };
  var generation = 1;
  var cooling = false;   // a throttle window is open
  var pending = false;   // a change happened inside it: push when it closes
  var heartbeat = null;  // id of the pending heartbeat timer, or null

  // Message objects and arrays without prototypes: no inherited toJSON or setters.
  function record() { return createObject(null); }
  function list() { return setPrototypeOf([], null); }

  function post(message) {
    var text;
    try { text = stringify(message); } catch (e) { return; }
    try {
      var webkit = w.webkit;
      var handlers = webkit && webkit.messageHandlers;
      var handler = handlers && handlers.scratchpadInk;
      if (handler && typeof handler.postMessage === 'function') { handler.postMessage(text); return; }
      var host = w.scratchpadInkHost;
      if (typeof host === 'function') { host(text); }
    } catch (e) { /* the channel failed; nothing else to try */ }
  }

  function scrollOffset(value) { return isFiniteNumber(value) ? value : 0; }
  function round2(value) { return round(value * 100) / 100; }

  function isInteractive(element) {
    if (!element) { return false; }
    var selector = options.selector;
    if (typeof element.closest === 'function') { return element.closest(selector) !== null; }
    for (var node = element; node; node = node.parentElement) {
      if (typeof node.matches === 'function' && node.matches(selector)) { return true; }
    }
    return false;
  }

  // The coordinate mapping of recent generations (see "Answers and generations").
  var mappings = record();
  function mappingKey() {
    var viewport = w.visualViewport;
    var zoom = viewport && isFiniteNumber(viewport.scale) ? viewport.scale : 1;
    return stringify([scrollOffset(w.scrollX), scrollOffset(w.scrollY), w.innerWidth, w.innerHeight, zoom, options.selector]);
  }
  function rememberMapping() {
    mappings[generation] = mappingKey();
    delete mappings[generation - 64];
  }
  function answerGeneration(asked) {
    var known = mappings[asked];
    return typeof known === 'string' && known === mappingKey() ? asked : generation;
  }

  function hitTest(request) {
    try {
      if (request === null || typeof request !== 'object') { return; }
      // Read each field once so getters cannot change a value between check and use.
      var type = request.type, id = request.id, x = request.x, y = request.y, gen = request.generation;
      if (type !== 'hitTest' || typeof id !== 'string' || apply(regexpExec, ID_PATTERN, [id]) === null) { return; }
      if (!isFiniteNumber(x) || !isFiniteNumber(y) || !isSafeInteger(gen) || gen < 0) { return; }
      var vx = x - scrollOffset(w.scrollX), vy = y - scrollOffset(w.scrollY);
      var element = doc.elementFromPoint(vx, vy); // null outside the viewport: not interactive
      var answer = record();
      answer.type = 'answer';
      answer.id = id;
      answer.interactive = isInteractive(element) ? 1 : 0;
      answer.generation = answerGeneration(gen);
      post(answer);
    } catch (e) { /* never throw into the host's evaluateJavaScript */ }
  }

  function elementId(element) {
    var id = element.id;
    if (typeof id !== 'string' || id.length === 0) { return undefined; }
    if (id.length <= 64) { return id; }
    var end = 64;
    var last = apply(charCodeAt, id, [63]);
    if (last >= 0xd800 && last <= 0xdbff) { end = 63; } // do not split a surrogate pair
    return apply(stringSlice, id, [0, end]);
  }

  function snapshot() {
    var sx = scrollOffset(w.scrollX), sy = scrollOffset(w.scrollY);
    var elements = doc.querySelectorAll(options.selector);
    var regions = list();
    var count = 0;
    for (var i = 0; i < elements.length && count < options.maxRegions; i += 1) {
      var rect = elements[i].getBoundingClientRect();
      var width = rect.width, height = rect.height, left = rect.left, top = rect.top;
      if (!(width > 0) || !(height > 0) || !isFiniteNumber(width) || !isFiniteNumber(height)) { continue; }
      if (!isFiniteNumber(left) || !isFiniteNumber(top)) { continue; }
      var region = record();
      region.x = round2(left + sx);
      region.y = round2(top + sy);
      region.width = round2(width);
      region.height = round2(height);
      var id = elementId(elements[i]);
      if (id !== undefined) { region.element = id; }
      regions[count] = region;
      count += 1;
    }
    var message = record();
    message.type = 'regions';
    message.generation = generation;
    message.maxAge = options.maxAge;
    message.regions = regions;
    return message;
  }

  function closeWindow() {
    cooling = false;
    if (pending) { sendNow(); } // the trailing push, carrying the latest generation
  }

  // Posts a snapshot now, opens a throttle window (unless one is open already) and
  // restarts the heartbeat.
  function sendNow() {
    pending = false;
    try { post(snapshot()); } catch (e) { /* a broken DOM: skip this snapshot */ }
    if (!cooling) {
      cooling = true;
      apply(timeout, w, [closeWindow, options.throttle]);
    }
    scheduleHeartbeat();
  }

  function schedulePush() {
    if (cooling) { pending = true; } else { sendNow(); }
  }

  function isVisible() {
    try { return doc.visibilityState !== 'hidden'; } catch (e) { return true; }
  }

  function stopHeartbeat() {
    if (heartbeat !== null) {
      apply(cancelTimeout, w, [heartbeat]);
      heartbeat = null;
    }
  }

  function beat() {
    heartbeat = null;
    if (isVisible()) { schedulePush(); } // same generation: the layout did not change
  }

  // The next heartbeat, maxAge / 2 after the push that just happened (see "Heartbeat").
  function scheduleHeartbeat() {
    stopHeartbeat();
    if (!isVisible() || !(options.maxAge > 0)) { return; }
    heartbeat = apply(timeout, w, [beat, options.maxAge / 2]);
  }

  function visibilityChanged() {
    if (isVisible()) { schedulePush(); } else { stopHeartbeat(); }
  }

  function layoutChanged() {
    generation += 1;
    rememberMapping();
    schedulePush();
  }

  function isValidSelector(selector) {
    try { doc.querySelector(selector); return true; } catch (e) { return false; }
  }

  function configure(given) {
    if (given === null || typeof given !== 'object') { return; }
    var selector = given.selector, maxAge = given.maxAge, throttle = given.throttle, maxRegions = given.maxRegions;
    var changed = false;
    if (typeof selector === 'string' && selector.length > 0 && selector !== options.selector && isValidSelector(selector)) {
      options.selector = selector;
      changed = true;
    }
    if (isFiniteNumber(maxAge) && maxAge >= 0) { options.maxAge = maxAge; }
    if (isFiniteNumber(throttle) && throttle >= 0) { options.throttle = throttle; }
    if (isSafeInteger(maxRegions) && maxRegions >= 0) { options.maxRegions = maxRegions; }
    if (changed) { layoutChanged(); } // answers under the old selector no longer hold
  }

  rememberMapping(); // generation 1

  var api = {
    hitTest: hitTest,
    configure: configure,
    pushRegions: function () { sendNow(); },
    get generation() { return generation; }
  };
  defineProperty(w, 'scratchpadInk', { value: freeze(api), writable: false, configurable: false, enumerable: false });

  w.addEventListener('resize', layoutChanged, { passive: true });
  // Scroll events of the document and of scrollable elements all pass window in the capture phase.
  w.addEventListener('scroll', layoutChanged, { capture: true, passive: true });
  doc.addEventListener('visibilitychange', visibilityChanged);
  if (typeof w.MutationObserver === 'function' && doc.documentElement) {
    new w.MutationObserver(layoutChanged).observe(doc.documentElement,
      { childList: true, subtree: true, attributes: true, characterData: true });
  }
  if (doc.readyState === 'loading') {
    doc.addEventListener('DOMContentLoaded', function () { schedulePush(); }, { once: true });
  } else {
    schedulePush();
  }
})();
