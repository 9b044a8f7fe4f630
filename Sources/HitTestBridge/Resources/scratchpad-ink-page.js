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
 *   configure(options)  { selector, maxAge, throttle, maxRegions, overlayScrollbar }; invalid values (and
 *                       selectors the browser rejects) are ignored; a new selector or
 *                       overlayScrollbar counts as a layout change
 *   pushRegions(shown)  post a snapshot now (saying the document is shown when `shown` is true)
 *   stop()              the native side went away: post nothing more (no snapshot, no
 *                       heartbeat, no answer); returns true
 *   replay(batch)       replay a touch's samples into the page as DOM events (see
 *                       "Replay"); returns nothing, never throws
 *   replayPending       samples accepted and not yet dispatched (read-only; see "Pacing")
 *   generation          the page's layout generation (read-only)
 *   document            this document's id (read-only; see "Document")
 *
 * Messages in (from the native side, as a JavaScript object):
 *   {"type":"hitTest","id":"<32 lowercase hex chars>","x":<page x>,"y":<page y>,"generation":<int>}
 *   Anything else (wrong type, bad id, non-finite coordinates, generation not a
 *   non-negative integer, not an object) is ignored: nothing is posted.
 *
 * Messages out (each JSON.stringify'd and posted as a string):
 *   {"type":"answer","id":<same id>,"interactive":1 or 0,"generation":<see "Answers and generations">,"document":"<16 hex>"}
 *   {"type":"regions","generation":<int>,"document":"<16 hex>","maxAge":<ms number>,"regions":[{"x":..,"y":..,"width":..,"height":..,"element":"<id or omitted>"}...]}
 *   The viewport's scrollbars are regions too, with element "scrollbar-vertical" or
 *   "scrollbar-horizontal", and a hit test on them answers interactive: a press there
 *   scrolls, it does not write. A classic scrollbar is the room between the window's inner
 *   size and the root element's client size; an overlay scrollbar (WebKitGTK, iOS) takes no
 *   room, so while the page scrolls that way a strip `overlayScrollbar` wide (configure();
 *   default 12, 0 for none) along the viewport's edge stands for it.
 *   Coordinates are page (document) coordinates; region numbers are rounded to at most
 *   2 decimals; zero-size rectangles are skipped; `element` is the element's id (at most
 *   64 characters) and is omitted when the element has none.
 *
 * Channel: window.webkit.messageHandlers.scratchpadInk.postMessage(string) when present,
 * else window.scratchpadInkHost(string) when it is a function, else the message is
 * dropped. The channel is looked up at every post, so a host may install it later.
 *
 * Document: each load of the script (a new document: the next exercise, a reload, a web
 * content process that restarted) draws a random id of 16 lowercase hex digits (64 bits
 * from crypto.getRandomValues; from Math.random where that is missing) and puts it in every
 * message it posts as "document". The native side refuses the messages of a document it was
 * told was replaced, and takes a new id for a new document, so nothing an old document says
 * (a late answer, a snapshot still in flight) is taken for the new one's, whose generations
 * start at 1 again. The page says which document is shown: a snapshot carries
 * "shown":true when it is the script's first, the first after the page is shown again from
 * the back/forward cache (a pageshow event with persisted; the generation increases, so a
 * snapshot of its earlier life still in flight is older), and when the native side asks
 * (pushRegions(true), after it heard of a navigation). A shown snapshot makes its document
 * the native side's current one again, even one it retired. A replay naming another
 * document than this one ("document") is refused whole: replay() returns false.
 *
 * Generation: starts at 1 and increases by 1 whenever the layout may have changed
 * (window resize; any scroll, seen by a capturing listener on window; DOM mutations;
 * configure(); the window's load event and the document's fonts becoming ready, since
 * stylesheets, images and web fonts change the layout without a DOM mutation, and this
 * script may run before they are applied). Each increase schedules a snapshot push, throttled to at most one push
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
 * Replay: where the platform fixes a touch's owner at touch-down (iOS), a touch the ink
 * overlay took and the page claimed later cannot be handed to the browser; the native
 * side passes its samples here instead, in batches, and the script dispatches them as
 * synthesized DOM events (untrusted: the page's handlers run; default actions such as
 * focus, scrolling or text selection do not):
 *   {"type":"replay","touch":<safe integer >= 1>,"pointerType":"touch"|"pen"|"mouse",
 *    "document":<this document's id, optional>, "source":<the native loop's id, optional>, "events":[{"phase":"down"|"move"|"up"|"cancel","x":<page x>,"y":<page y>,"t":<seconds>,
 *               "pressure":<0...1, optional>}, ...]}
 * x and y are page (document) coordinates, as in hitTest; each event is dispatched at
 * client (viewport) coordinates = page - window scroll, the scroll read at that event.
 * `t` is the sample's original timestamp on the native clock: carried, not interpreted
 * (but for taps, below). A touch's first batch starts with "down" (no later event is a
 * "down"); later batches continue it; "up" or "cancel" ends it and is its batch's last
 * event. Batches of one touch come in order; touches may interleave. A batch is checked
 * whole before anything is dispatched and is ignored whole (nothing dispatched, nothing
 * remembered) when anything is wrong: not an object; type not "replay"; touch not a safe
 * integer >= 1; another pointerType; events not an array of 1 to 4096 events; an event
 * with another phase, non-finite x, y or t, or a pressure that is not a number in 0...1;
 * a "down" that is not first, or an event after "up"/"cancel"; a first batch that does
 * not start with "down", or a "down" for a touch still live; a pointerType other than the
 * touch's; a "down" while 32 replayed touches are live (the cap; a touch stops being
 * live at its "up" or "cancel").
 * For each event, in order:
 *   1. a PointerEvent: pointerdown / pointermove / pointerup / pointercancel; bubbles,
 *      composed, cancelable (all but pointercancel, as in browsers); pointerId 1000 + touch
 *      (a touch above 2^31 - 1001 is first taken modulo 2^31 - 1001), stepped up past every
 *      id a pointer already has on the page at the "down": a live replayed touch's, and a
 *      pointer the platform has down (a trusted pointerdown without its pointerup or
 *      pointercancel yet, at most 256 remembered); a "down" that finds no free id within
 *      64 steps is refused like a bad batch. The id is the touch's until its "up" or
 *      "cancel" (a native pointer that comes down later under the same id is the platform's
 *      choice, not ours); pointerType;
 *      isPrimary (always for "mouse"; else true when no other replayed touch of that
 *      pointerType was live at its "down"); pressure (the sample's, else 0.5; 0 on up
 *      and cancel); width and height 1; clientX/Y; screenX/Y = client + window.screenX/Y;
 *      button 0 on down and up, -1 otherwise; buttons 1 on down and move, else 0.
 *   2. the legacy events, where the browser can construct them. For "touch": a
 *      TouchEvent (touchstart / touchmove / touchend / touchcancel; touchcancel is not
 *      cancelable) with one Touch (identifier = pointerId, page, client and screen
 *      positions, force = pressure) in changedTouches, and in touches every live
 *      replayed "touch" (an ended one is in neither touches nor targetTouches). The Touch
 *      is new Touch({...}); where that constructor is missing or illegal (WebKit) it is
 *      document.createTouch(...) (WebKit rounds its positions to integers), and where the
 *      TouchEvent constructor refuses arrays (WebKit) the lists are
 *      document.createTouchList(...). Where no Touch can be made (neither new Touch nor
 *      document.createTouch), or there is no TouchEvent constructor, the event comes from
 *      document.createEvent('TouchEvent') and initTouchEvent (iOS WebKit's argument order,
 *      type first, else the older lists first; lists from createTouchList, or null), else
 *      initEvent; such an event is dispatched only if it has its lists (Chromium's and
 *      WebKitGTK's have neither initTouchEvent nor lists then: no touch event goes, none a
 *      page's handler would throw on). No touch event where none of these works.
 *      For "mouse" and "pen": the compatibility mousedown / mousemove / mouseup (nothing
 *      for cancel), unless the page cancelled the touch's pointerdown (preventDefault),
 *      as browsers do.
 *   3. after an "up" ending a tap, a `click` (MouseEvent, detail 1, to the down target):
 *      the element under the up point is the down target or inside it, no sample of the
 *      touch was more than 10 px from its down, and up's t - down's t is 0 to 0.5 s.
 * Targets: for "touch" and "pen" every event of a touch goes to the element under its
 * down (implicit pointer capture), even after that element moved or left the document;
 * for "mouse" each event goes to the element under its own point. The pointer events (and
 * compatibility mouse events) of a pointer the page captured go to the capturing element
 * (see "Pointer capture"); touch events always go to the down target. Where
 * elementFromPoint finds nothing (a point outside the viewport) the target is
 * document.documentElement.
 * Pacing: a batch is checked and accepted (the touch's state, the cap and the ids above
 * change at once) when replay() is called; its samples are dispatched later, in one
 * queue for all touches, in order, spread over time so that the page's handlers see
 * motion rather than one burst. When nothing is waiting, the batch's first sample goes at
 * once (inside replay()); every other waiting sample is due its original gap (t minus the
 * t before it, 0 if negative) after the one before it, divided by a speed of at least 2
 * and higher where needed so that the last waiting sample is due at most 100 ms after the
 * batch that carried it was handed over (a sample already due earlier keeps its time).
 * So a backlog of any length (a late verdict's: the samples from touch-down to the
 * answer) reaches the page within 100 ms of being handed over, over six or so frames at
 * 60 Hz, and the replay catches up with live samples, which then go as they come. A batch
 * that is a whole tap (a down and the up ending it, by the click rule's time and distance
 * in 3. above) is not paced: it and everything waiting before it are dispatched inside
 * replay(), so its pointerup and click run inside the host's evaluation and keep its user
 * activation (WebKit evaluates with a forced user gesture; a timer task has none). Only
 * drags are paced. A timer
 * dispatches what is due (one task per due time; what a late timer finds overdue goes
 * in the same task); times are performance.now() (else Date.now()).
 * Pointer capture: the browser does not know replayed pointers, so its
 * setPointerCapture throws NotFoundError for them. A page whose drag code captures loads
 * the cooperation shim scratchpad-ink-capture.js in its own world (it works whichever
 * world this script runs in), which asks this script with a cancelable CustomEvent on the
 * element, `scratchpadinksetpointercapture`, `scratchpadinkreleasepointercapture` or
 * `scratchpadinkhaspointercapture`, detail the pointer id. This script (listening on
 * window, capture phase) cancels it, answering yes, when the id is a replayed pointer that
 * is active (its pointerdown dispatched, its pointerup or pointercancel not finished) and,
 * for set, the element is in the document; for has, when that element holds the pending
 * capture. Set and release change the pending capture; before each later pointer event of
 * that pointer, and after its pointerup or pointercancel (which release it), a change
 * fires lostpointercapture at the old element (the document if it left) and
 * gotpointercapture at the new (PointerEvents, bubbling, not cancelable, marked and
 * announced like the rest), as a browser does.
 * Marks: every event replay() dispatches carries two own, enumerable, read-only
 * properties, `scratchpadInkReplayed` (true) and `scratchpadInkTime` (the sample's t).
 * Only listeners in this script's world can see them: where the script runs in an
 * isolated world (WKContentWorld, a WebKitGTK script world, a Chromium isolated world,
 * as the hosts here install it) the page's own scripts get another wrapper of the same
 * event, without them (isTrusted is false there too). So around each replayed event the
 * script also dispatches on window a CustomEvent `scratchpadinkreplaystart`, whose detail
 * is the sample's t (a number: every world reads it), and after that event's dispatch
 * returns a `scratchpadinkreplayend` (same detail). An untrusted event a page handles
 * between the two is the replay of the sample at that time.
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
  var mathMin = Math.min;
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
  var isArray = Array.isArray;
  var PointerEventType = w.PointerEvent, MouseEventType = w.MouseEvent, TouchEventType = w.TouchEvent;
  var TouchType = w.Touch, CustomEventType = w.CustomEvent;
  var createTouch = doc.createTouch, createTouchList = doc.createTouchList, createEvent = doc.createEvent;
  var performanceObject = w.performance;
  var performanceNow = performanceObject && performanceObject.now;
  var dateNow = Date.now;
  var ID_PATTERN = /^[0-9a-f]{32}$/;
  var cryptoObject = w.crypto;
  var getRandomValues = cryptoObject && cryptoObject.getRandomValues;
  var random = Math.random;
  var Uint32ArrayType = w.Uint32Array || (typeof Uint32Array === 'function' ? Uint32Array : undefined);

  // This document's id (see "Document"): 16 lowercase hex digits, drawn once per load.
  function hex8(word) {
    var digits = (word >>> 0).toString(16);
    while (digits.length < 8) { digits = '0' + digits; }
    return digits;
  }
  function makeDocumentId() {
    var words = null;
    try {
      if (typeof getRandomValues === 'function' && typeof Uint32ArrayType === 'function') {
        words = apply(getRandomValues, cryptoObject, [new Uint32ArrayType(2)]);
      }
    } catch (e) { words = null; }
    if (!words || words.length !== 2) {
      words = [random() * 4294967296, random() * 4294967296];
    }
    return hex8(words[0]) + hex8(words[1]);
  }
  var documentId = makeDocumentId();

  var options = { selector: '[data-ink-interactive], .interactive', maxAge: 1000, throttle: 100, maxRegions: 5000,
                  overlayScrollbar: 12 };
  var generation = 1;
  var cooling = false;   // a throttle window is open
  var pending = false;   // a change happened inside it: push when it closes
  var heartbeat = null;  // id of the pending heartbeat timer, or null
  var sayShown = true;  // the next snapshot says this document is the one shown
  var stopped = false;  // stop(): the native side went away, nothing is posted any more

  // Message objects and arrays without prototypes: no inherited toJSON or setters.
  function record() { return createObject(null); }
  function list() { return setPrototypeOf([], null); }

  function post(message) {
    if (stopped) { return; }
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
      answer.interactive = isInteractive(element) || onScrollbar(vx, vy) ? 1 : 0;
      answer.generation = answerGeneration(gen);
      answer.document = documentId;
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

  // The viewport's own scrollbars, in viewport coordinates: a classic one takes room (the
  // window's inner size minus the root element's client size); an overlay one takes none and
  // is taken to be `overlayScrollbar` wide along the edge, when the page scrolls that way.
  function scrollbars() {
    var bars = list();
    var root = doc.documentElement;
    if (!root) { return bars; }
    var scroller = doc.scrollingElement || root;
    var innerWidth = w.innerWidth, innerHeight = w.innerHeight, clientWidth = root.clientWidth, clientHeight = root.clientHeight;
    if (!isFiniteNumber(innerWidth) || !isFiniteNumber(innerHeight) || !isFiniteNumber(clientWidth) || !isFiniteNumber(clientHeight)) {
      return bars;
    }
    var edge = options.overlayScrollbar;
    var vertical = innerWidth - clientWidth, horizontal = innerHeight - clientHeight;
    if (!(vertical > 0) && edge > 0 && scroller.scrollHeight > scroller.clientHeight) { vertical = mathMin(edge, clientWidth); }
    if (!(horizontal > 0) && edge > 0 && scroller.scrollWidth > scroller.clientWidth) { horizontal = mathMin(edge, clientHeight); }
    if (vertical > 0) { bars[bars.length] = [innerWidth - vertical, 0, vertical, innerHeight, 'scrollbar-vertical']; }
    if (horizontal > 0) { bars[bars.length] = [0, innerHeight - horizontal, innerWidth - (vertical > 0 ? vertical : 0), horizontal, 'scrollbar-horizontal']; }
    return bars;
  }

  function onScrollbar(vx, vy) {
    var bars = scrollbars();
    for (var i = 0; i < bars.length; i += 1) {
      var b = bars[i];
      if (vx >= b[0] && vx < b[0] + b[2] && vy >= b[1] && vy < b[1] + b[3]) { return true; }
    }
    return false;
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
    // The page's scrollbars are interactive: a press there scrolls, it does not write.
    var bars = scrollbars();
    for (var j = 0; j < bars.length && count < options.maxRegions; j += 1) {
      var bar = record();
      bar.x = round2(bars[j][0] + sx);
      bar.y = round2(bars[j][1] + sy);
      bar.width = round2(bars[j][2]);
      bar.height = round2(bars[j][3]);
      bar.element = bars[j][4];
      regions[count] = bar;
      count += 1;
    }
    var message = record();
    message.type = 'regions';
    message.generation = generation;
    message.document = documentId;
    if (sayShown) { message.shown = true; }
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
    if (stopped) { return; }
    try { post(snapshot()); sayShown = false; } catch (e) { /* a broken DOM: skip this snapshot */ }
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
    if (stopped) { return; }
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
    var overlayScrollbar = given.overlayScrollbar;
    if (isFiniteNumber(overlayScrollbar) && overlayScrollbar >= 0 && overlayScrollbar !== options.overlayScrollbar) {
      options.overlayScrollbar = overlayScrollbar;
      changed = true;
    }
    if (changed) { layoutChanged(); } // answers under the old selector no longer hold
  }

  // Replay (see "Replay" above).
  var MAX_REPLAY_EVENTS = 4096, MAX_REPLAY_TOUCHES = 32;
  var POINTER_ID_SPAN = 2147483647 - 1000; // pointerId is a 32-bit signed integer
  var TAP_SLOP = 10, TAP_SECONDS = 0.5;
  var CATCH_UP_MS = 100, MIN_SPEED = 2; // see "Pacing"
  var replaying = record(); // accepted touches not yet ended, by source and touch id: what batches are checked against
  var replayingCount = 0;
  // Pointer ids are unique in this document, not per native loop: the source (the native loop)
  // each touch number was last used by, and the highest pointer id used so far. A touch number
  // a new loop uses again goes down under a pointer id this page has never seen.
  var sourceOfTouch = record();
  var highestPointerId = 0;
  var renumbering = false;  // a second source was seen: every new pointer id is above all used
  var active = record();    // replayed pointers down on the page (pointerdown dispatched, pointerup or cancel not yet), by pointerId
  var queue = list();       // accepted samples not yet dispatched, in order: { state, sample, due }
  var queueHead = 0;
  var pumpTimer = null, pumping = false;
  var lastDispatch = null;  // { wall, t } of the last sample dispatched
  var initEvent = w.Event && w.Event.prototype && w.Event.prototype.initEvent;
  var preventDefault = w.Event && w.Event.prototype && w.Event.prototype.preventDefault;

  function pointerIdFor(touch) { return 1000 + (touch <= POINTER_ID_SPAN ? touch : touch % POINTER_ID_SPAN); }

  // Pointers the platform has down on the page: trusted pointerdowns without their pointerup
  // or pointercancel yet (a replay's own events are untrusted and never counted).
  var MAX_NATIVE_POINTERS = 256, MAX_POINTER_STEPS = 64;
  var nativeDown = record(), nativeDownCount = 0;
  function nativePointer(e) {
    try {
      if (e.isTrusted !== true) { return; }
      var id = e.pointerId;
      if (typeof id !== 'number') { return; }
      if (e.type === 'pointerdown') {
        if (nativeDown[id] === true) { return; }
        if (nativeDownCount >= MAX_NATIVE_POINTERS) { nativeDown = record(); nativeDownCount = 0; } // lost ups: forget
        nativeDown[id] = true;
        nativeDownCount += 1;
      } else if (nativeDown[id] === true) {
        delete nativeDown[id];
        nativeDownCount -= 1;
      }
    } catch (err) { /* never throw into the page's dispatch */ }
  }

  // The pointer id a replayed touch goes down under: its own (pointerIdFor), stepped up past
  // every id a live replayed touch or a native pointer has; -1 when none is free within
  // MAX_POINTER_STEPS. Once a touch number came from a second source (a new native loop over
  // the same document), every new pointer goes down under an id above every one used.
  function freePointerId(touch, source) {
    var id = pointerIdFor(touch);
    var previous = sourceOfTouch[touch];
    sourceOfTouch[touch] = source;
    if (previous !== undefined && previous !== source) { renumbering = true; }
    if (renumbering) { id = highestPointerId >= 2147483647 || highestPointerId < 1000 ? 1000 : highestPointerId + 1; }
    for (var step = 0; step < MAX_POINTER_STEPS; step += 1) {
      var taken = nativeDown[id] === true;
      for (var key in replaying) { if (replaying[key].pointerId === id) { taken = true; } }
      if (!taken) {
        if (id > highestPointerId) { highestPointerId = id; }
        return id;
      }
      id = id >= 2147483647 ? 1000 : id + 1;
    }
    return -1;
  }

  function liveReplays() {
    var out = [];
    for (var key in active) { out[out.length] = active[key]; }
    return out;
  }

  // Milliseconds, for pacing: performance.now() where there is one, else Date.now().
  function now() {
    if (typeof performanceNow === 'function') {
      try { return apply(performanceNow, performanceObject, []); } catch (e) { /* fall back */ }
    }
    return apply(dateNow, Date, []);
  }

  function readSample(given) {
    if (given === null || typeof given !== 'object') { return null; }
    var phase = given.phase, x = given.x, y = given.y, t = given.t, pressure = given.pressure;
    if (phase !== 'down' && phase !== 'move' && phase !== 'up' && phase !== 'cancel') { return null; }
    if (!isFiniteNumber(x) || !isFiniteNumber(y) || !isFiniteNumber(t)) { return null; }
    if (pressure !== undefined && !(isFiniteNumber(pressure) && pressure >= 0 && pressure <= 1)) { return null; }
    var sample = record();
    sample.phase = phase;
    sample.x = x;
    sample.y = y;
    sample.t = t;
    sample.pressure = pressure;
    return sample;
  }

  function elementAt(cx, cy) {
    var element = doc.elementFromPoint(cx, cy);
    return element ? element : doc.documentElement;
  }

  function isInside(node, ancestor) {
    for (var n = node; n; n = n.parentElement) { if (n === ancestor) { return true; } }
    return false;
  }

  function isConnected(element) {
    var connected = element.isConnected;
    return connected === undefined ? true : connected === true;
  }

  function mark(event, t) {
    var replayed = record();
    replayed.value = true;
    replayed.enumerable = true;
    defineProperty(event, 'scratchpadInkReplayed', replayed);
    var time = record();
    time.value = t;
    time.enumerable = true;
    defineProperty(event, 'scratchpadInkTime', time);
    return event;
  }

  // The marker every world can read: a CustomEvent on window whose detail is `t`.
  function announce(type, t) {
    if (typeof CustomEventType !== 'function') { return; }
    try {
      var init = record();
      init.detail = t;
      w.dispatchEvent(mark(new CustomEventType(type, init), t));
    } catch (e) { /* no announcement; the replay goes on */ }
  }

  // Dispatches a replayed event; returns dispatchEvent's result (false: cancelled).
  function dispatchReplayed(target, event, t) {
    mark(event, t);
    announce('scratchpadinkreplaystart', t);
    try { return target.dispatchEvent(event); } finally { announce('scratchpadinkreplayend', t); }
  }

  function eventInit(cancelable, cx, cy, button, buttons, detail) {
    var init = record();
    init.bubbles = true;
    init.cancelable = cancelable;
    init.composed = true;
    init.view = w;
    init.detail = detail;
    init.clientX = cx;
    init.clientY = cy;
    init.screenX = cx + scrollOffset(w.screenX);
    init.screenY = cy + scrollOffset(w.screenY);
    init.button = button;
    init.buttons = buttons;
    return init;
  }

  function pointerInit(state, cancelable, cx, cy, button, buttons, pressure) {
    var init = eventInit(cancelable, cx, cy, button, buttons, 0);
    init.pointerId = state.pointerId;
    init.pointerType = state.pointerType;
    init.isPrimary = state.primary;
    init.pressure = pressure;
    init.width = 1;
    init.height = 1;
    return init;
  }

  // Pointer capture (see "Pointer capture"): requests from the page's cooperation shim,
  // answered by cancelling them.
  var CAPTURE_REQUESTS = record();
  CAPTURE_REQUESTS.scratchpadinksetpointercapture = 'set';
  CAPTURE_REQUESTS.scratchpadinkreleasepointercapture = 'release';
  CAPTURE_REQUESTS.scratchpadinkhaspointercapture = 'has';

  function captureRequest(event) {
    try {
      var what = CAPTURE_REQUESTS[event.type], id = event.detail, element = event.target;
      if (what === undefined || !isSafeInteger(id)) { return; }
      var state = active[id];
      if (state === undefined || !element) { return; }
      if (what === 'set') {
        if (!isConnected(element)) { return; }
        state.pendingCapture = element;
      } else if (what === 'release') {
        if (state.pendingCapture === element) { state.pendingCapture = null; }
      } else if (state.pendingCapture !== element) {
        return;
      }
      apply(preventDefault, event, []);
    } catch (e) { /* not answered: the shim throws the browser's error */ }
  }

  function dispatchCaptureEvent(state, target, type, sample) {
    if (typeof PointerEventType !== 'function') { return; }
    var cx = sample.x - scrollOffset(w.scrollX), cy = sample.y - scrollOffset(w.scrollY);
    try {
      var init = pointerInit(state, false, cx, cy, -1, 0, 0);
      dispatchReplayed(target, new PointerEventType(type, init), sample.t);
    } catch (e) { /* no capture event */ }
  }

  // The browser's "process pending pointer capture": before a pointer event of the touch
  // (after its down) and after its up or cancel.
  function processCapture(state, sample) {
    var pending = state.pendingCapture;
    if (pending && !isConnected(pending)) { pending = state.pendingCapture = null; }
    var current = state.capture;
    if (pending === current) { return; }
    state.capture = pending;
    if (current) { dispatchCaptureEvent(state, isConnected(current) ? current : doc, 'lostpointercapture', sample); }
    if (pending) { dispatchCaptureEvent(state, pending, 'gotpointercapture', sample); }
  }

  // A Touch: new Touch({...}) where the browser allows it (Chromium, Firefox), else the
  // legacy document.createTouch (WebKit, whose Touch constructor is illegal); null if neither.
  function makeTouch(state, cx, cy, sample, pressure) {
    var screenX = cx + scrollOffset(w.screenX), screenY = cy + scrollOffset(w.screenY);
    if (typeof TouchType === 'function') {
      try {
        var init = record();
        init.identifier = state.pointerId;
        init.target = state.target;
        init.clientX = cx;
        init.clientY = cy;
        init.pageX = sample.x;
        init.pageY = sample.y;
        init.screenX = screenX;
        init.screenY = screenY;
        init.radiusX = 0.5;
        init.radiusY = 0.5;
        init.rotationAngle = 0;
        init.force = pressure;
        return new TouchType(init);
      } catch (e) { /* not constructible here: try the legacy factory */ }
    }
    if (typeof createTouch === 'function') {
      try {
        return apply(createTouch, doc, [w, state.target, state.pointerId, sample.x, sample.y, screenX, screenY, 0.5, 0.5, 0, pressure]);
      } catch (e) { /* no legacy factory either */ }
    }
    return null;
  }

  function touchList(touches) {
    if (typeof createTouchList !== 'function') { return null; }
    try { return apply(createTouchList, doc, touches); } catch (e) { return null; }
  }

  // A TouchEvent whose lists are sequences of touches (Chromium) or, where the browser
  // takes only TouchList objects (WebKit), lists from document.createTouchList; null
  // where the constructor is missing or refuses both.
  function constructTouchEvent(type, dict, touches, targetTouches, changedTouches) {
    if (typeof TouchEventType !== 'function') { return null; }
    dict.touches = touches;
    dict.targetTouches = targetTouches;
    dict.changedTouches = changedTouches;
    try { return new TouchEventType(type, dict); } catch (e) { /* WebKit: TouchLists only */ }
    if (typeof createTouchList !== 'function') { return null; }
    try {
      dict.touches = apply(createTouchList, doc, touches);
      dict.targetTouches = apply(createTouchList, doc, targetTouches);
      dict.changedTouches = apply(createTouchList, doc, changedTouches);
      return new TouchEventType(type, dict);
    } catch (e) { return null; }
  }

  // The old path: document.createEvent('TouchEvent') and initTouchEvent, in iOS WebKit's
  // argument order (type first) or else the older one (lists first); the lists are
  // TouchLists (document.createTouchList) or null. Where there is no initTouchEvent, an
  // initEvent: the phase without touches, if the browser gives such an event (empty) lists;
  // null if not. Throws where the browser has no touch events.
  function legacyTouchEvent(type, cancelable, cx, cy, touches, targetTouches, changedTouches) {
    var event = apply(createEvent, doc, ['TouchEvent']);
    var screenX = cx + scrollOffset(w.screenX), screenY = cy + scrollOffset(w.screenY);
    var lists = [touchList(touches), touchList(targetTouches), touchList(changedTouches)];
    var init = event.initTouchEvent;
    if (typeof init === 'function') {
      try {
        apply(init, event, [type, true, cancelable, w, 0, screenX, screenY, cx, cy, false, false, false, false,
                            lists[0], lists[1], lists[2], 1, 0]);
      } catch (e) { /* the other argument order */ }
      if (event.type !== type) {
        try {
          apply(init, event, [lists[0], lists[1], lists[2], type, w, screenX, screenY, cx, cy, false, false, false, false]);
        } catch (e) { /* neither: initEvent below */ }
      }
    }
    if (event.type !== type) { apply(initEvent, event, [type, true, cancelable]); }
    // Without its lists (Chromium's initEvent leaves them null) a page's touch handler
    // would throw on it: no touch event then.
    var changed = event.changedTouches;
    return changed !== null && typeof changed === 'object' && typeof changed.length === 'number' ? event : null;
  }

  function dispatchTouchEvent(state, target, type, cancelable, cx, cy, sample, pressure, ending) {
    var event = null;
    try {
      var point = makeTouch(state, cx, cy, sample, pressure);
      state.touchPoint = point;
      var touches = [], targetTouches = [], changed = [];
      if (point !== null) {
        changed[0] = point;
        if (!ending) { touches[0] = point; targetTouches[0] = point; } // an ended touch is in neither
      }
      var live = liveReplays();
      for (var i = 0; i < live.length; i += 1) {
        var other = live[i];
        if (other.pointerType !== 'touch' || !other.touchPoint || other === state) { continue; }
        touches[touches.length] = other.touchPoint;
        if (other.target === state.target) { targetTouches[targetTouches.length] = other.touchPoint; }
      }
      if (point !== null) {
        var dict = record();
        dict.bubbles = true;
        dict.cancelable = cancelable;
        dict.composed = true;
        dict.view = w;
        event = constructTouchEvent(type, dict, touches, targetTouches, changed);
      }
      if (event === null && typeof createEvent === 'function') {
        event = legacyTouchEvent(type, cancelable, cx, cy, touches, targetTouches, changed);
      }
    } catch (e) { return; } // this browser cannot make touch events
    if (event !== null) { dispatchReplayed(target, event, sample.t); }
  }

  var POINTER_TYPES = { down: 'pointerdown', move: 'pointermove', up: 'pointerup', cancel: 'pointercancel' };
  var TOUCH_TYPES = { down: 'touchstart', move: 'touchmove', up: 'touchend', cancel: 'touchcancel' };
  var MOUSE_TYPES = { down: 'mousedown', move: 'mousemove', up: 'mouseup' };

  // The click rule's time and distance (see 3. above), written once: the up is 0 to 0.5 s
  // after the down, and no sample is more than 10 px from the down.
  function isTapDuration(downT, upT) { return upT >= downT && upT - downT <= TAP_SECONDS; }

  // Whether a batch is a whole tap by the click rule's time and distance: a down, then an up
  // ending it, every sample within 10 px of the down (see "Pacing": a whole tap is
  // dispatched inside replay()).
  function isWholeTap(samples, count) {
    var down = samples[0], up = samples[count - 1];
    if (down.phase !== 'down' || up.phase !== 'up' || !isTapDuration(down.t, up.t)) { return false; }
    for (var i = 1; i < count; i += 1) {
      var dx = samples[i].x - down.x, dy = samples[i].y - down.y;
      if (dx * dx + dy * dy > TAP_SLOP * TAP_SLOP) { return false; }
    }
    return true;
  }

  function replaySample(state, sample) {
    var phase = sample.phase;
    var ending = phase === 'up' || phase === 'cancel';
    var cx = sample.x - scrollOffset(w.scrollX), cy = sample.y - scrollOffset(w.scrollY);
    var under = elementAt(cx, cy);
    if (phase === 'down') {
      state.target = under;
      state.downX = sample.x;
      state.downY = sample.y;
      state.downT = sample.t;
      active[state.pointerId] = state; // active from its pointerdown on: the page may capture it
    } else {
      var dx = sample.x - state.downX, dy = sample.y - state.downY;
      if (dx * dx + dy * dy > TAP_SLOP * TAP_SLOP) { state.far = true; }
      processCapture(state, sample);
    }
    var target = state.capture ? state.capture : (state.pointerType === 'mouse' ? under : state.target);
    var pressure = ending ? 0 : (sample.pressure !== undefined ? sample.pressure : 0.5);
    var button = phase === 'down' || phase === 'up' ? 0 : -1;
    var buttons = ending ? 0 : 1;
    var cancelable = phase !== 'cancel';
    try {
      if (typeof PointerEventType === 'function') {
        var init = pointerInit(state, cancelable, cx, cy, button, buttons, pressure);
        var proceed = dispatchReplayed(target, new PointerEventType(POINTER_TYPES[phase], init), sample.t);
        if (phase === 'down' && proceed === false) { state.mouseBlocked = true; }
      }
    } catch (e) { /* no pointer event here; the legacy events still go */ }
    if (ending) {
      state.pendingCapture = null; // released at the pointer's end
      try { processCapture(state, sample); } catch (e) { /* no lostpointercapture */ }
      delete active[state.pointerId];
    }
    if (state.pointerType === 'touch') {
      dispatchTouchEvent(state, state.target, TOUCH_TYPES[phase], cancelable, cx, cy, sample, pressure, ending);
    } else if (phase !== 'cancel' && !state.mouseBlocked && typeof MouseEventType === 'function') {
      try {
        var mouse = new MouseEventType(MOUSE_TYPES[phase], eventInit(true, cx, cy, button, buttons, phase === 'move' ? 0 : 1));
        dispatchReplayed(target, mouse, sample.t);
      } catch (e) { /* no compatibility mouse event */ }
    }
    if (phase === 'up' && !state.far && isTapDuration(state.downT, sample.t) &&
        isInside(under, state.target) && typeof MouseEventType === 'function') {
      try {
        dispatchReplayed(state.target, new MouseEventType('click', eventInit(true, cx, cy, 0, 0, 1)), sample.t);
      } catch (e) { /* no click */ }
    }
  }

  // Pacing (see "Pacing"): re-times the samples waiting, the batch just accepted at
  // `wall` included. A sample keeps an earlier time it already had.
  function schedule(wall, wasIdle) {
    var first = queueHead, n = queue.length;
    if (first >= n) { return; }
    var originWall = wall, originT = queue[first].sample.t;
    if (!wasIdle && lastDispatch !== null) { originWall = lastDispatch.wall; originT = lastDispatch.t; }
    var offsets = list(), total = 0, previous = originT;
    for (var i = first; i < n; i += 1) {
      var t = queue[i].sample.t;
      if (t > previous) { total += (t - previous) * 1000; }
      previous = t;
      offsets[i - first] = total;
    }
    var factor = 1 / MIN_SPEED, room = wall + CATCH_UP_MS - originWall;
    if (total * factor > room) { factor = room / total; }
    for (var k = first; k < n; k += 1) {
      var due = originWall + offsets[k - first] * factor, item = queue[k];
      item.due = item.due === undefined ? due : mathMin(item.due, due);
    }
  }

  // Dispatches every waiting sample that is due (1 ms early counts: timers fire in whole
  // milliseconds) and sets a timer for the next.
  function pump() {
    if (pumping) { return; } // a page handler replayed from inside a dispatch: the loop below goes on
    pumping = true;
    try {
      if (pumpTimer !== null) { apply(cancelTimeout, w, [pumpTimer]); pumpTimer = null; }
      while (queueHead < queue.length) {
        var item = queue[queueHead], wall = now();
        if (item.due > wall + 1) { break; }
        queue[queueHead] = undefined;
        queueHead += 1;
        var last = record();
        last.wall = wall;
        last.t = item.sample.t;
        lastDispatch = last;
        try { replaySample(item.state, item.sample); } catch (e) { /* a broken DOM: go on with the next sample */ }
      }
      if (queueHead >= queue.length) {
        queue.length = 0;
        queueHead = 0;
      } else {
        var wait = queue[queueHead].due - now();
        pumpTimer = apply(timeout, w, [pumpTask, wait > 0 ? wait : 0]);
      }
    } finally {
      pumping = false;
    }
  }

  function pumpTask() {
    pumpTimer = null;
    try { pump(); } catch (e) { /* never throw into the event loop */ }
  }

  function replay(batch) {
    try {
      if (batch === null || typeof batch !== 'object') { return; }
      // Each field read once (see hitTest).
      var type = batch.type, touch = batch.touch, pointerType = batch.pointerType, given = batch.events;
      var named = batch.document, source = batch.source;
      if (source === undefined) { source = ''; }
      if (typeof source !== 'string' || source.length > 64) { return; }
      // A touch another document had (the page before a navigation) never reaches this one.
      if (named !== undefined && named !== documentId) { return false; }
      if (type !== 'replay' || !isSafeInteger(touch) || touch < 1) { return; }
      if (pointerType !== 'touch' && pointerType !== 'pen' && pointerType !== 'mouse') { return; }
      if (!isArray(given)) { return; }
      var count = given.length;
      if (!isSafeInteger(count) || count < 1 || count > MAX_REPLAY_EVENTS) { return; }
      var samples = list();
      for (var i = 0; i < count; i += 1) {
        var sample = readSample(given[i]);
        if (sample === null) { return; }
        if (sample.phase === 'down' && i !== 0) { return; }
        if ((sample.phase === 'up' || sample.phase === 'cancel') && i !== count - 1) { return; }
        samples[i] = sample;
      }
      var key = source + ':' + touch;
      var state = replaying[key];
      if (samples[0].phase === 'down') {
        if (state !== undefined || replayingCount >= MAX_REPLAY_TOUCHES) { return; }
        var pointerId = freePointerId(touch, source);
        if (pointerId < 0) { return; }
        var primary = true;
        for (var live in replaying) {
          if (replaying[live].pointerType === pointerType) { primary = false; }
        }
        state = record();
        state.touch = touch;
        state.pointerId = pointerId;
        state.pointerType = pointerType;
        state.primary = pointerType === 'mouse' ? true : primary;
        state.far = false;
        state.mouseBlocked = false;
        state.touchPoint = null;
        state.capture = null;
        state.pendingCapture = null;
        replaying[key] = state;
        replayingCount += 1;
      } else if (state === undefined || state.pointerType !== pointerType) {
        return;
      }
      var lastPhase = samples[count - 1].phase;
      if (lastPhase === 'up' || lastPhase === 'cancel') {
        delete replaying[key]; // ended: a later batch for it is refused, its place is free
        replayingCount -= 1;
      }
      var wasIdle = queueHead >= queue.length;
      for (var j = 0; j < count; j += 1) {
        var item = record();
        item.state = state;
        item.sample = samples[j];
        item.due = undefined;
        queue[queue.length] = item;
      }
      schedule(now(), wasIdle);
      if (isWholeTap(samples, count)) {
        // A late-claimed tap keeps the evaluation's user activation (WebKit runs
        // evaluateJavaScript with a forced user gesture): everything waiting, the tap last,
        // is due now and dispatched before replay() returns, in order.
        for (var k = queueHead; k < queue.length; k += 1) { queue[k].due = 0; }
      }
      pump();
    } catch (e) { /* never throw into the host's evaluateJavaScript */ }
  }

  rememberMapping(); // generation 1

  var api = {
    hitTest: hitTest,
    configure: configure,
    stop: function () {
      stopped = true;
      pending = false;
      stopHeartbeat();
      return true;
    },
    pushRegions: function (shown) {
      if (shown === true) { sayShown = true; }
      sendNow();
    },
    replay: replay,
    get replayPending() { return queue.length - queueHead; },
    get generation() { return generation; },
    get document() { return documentId; }
  };
  defineProperty(w, 'scratchpadInk', { value: freeze(api), writable: false, configurable: false, enumerable: false });

  w.addEventListener('resize', layoutChanged, { passive: true });
  w.addEventListener('pointerdown', nativePointer, true);
  w.addEventListener('pointerup', nativePointer, true);
  w.addEventListener('pointercancel', nativePointer, true);
  // Stylesheets, images and fonts that arrive after this script ran move things without a
  // DOM mutation: a snapshot taken before them would route touches to the wrong places.
  if (doc.readyState !== 'complete') { w.addEventListener('load', layoutChanged, { once: true }); }
  try {
    if (doc.fonts && doc.fonts.ready && typeof doc.fonts.ready.then === 'function') {
      doc.fonts.ready.then(function () { layoutChanged(); });
    }
  } catch (e) { /* no font loading API */ }
  // Scroll events of the document and of scrollable elements all pass window in the capture phase.
  w.addEventListener('scroll', layoutChanged, { capture: true, passive: true });
  doc.addEventListener('visibilitychange', visibilityChanged);
  // Shown again from the back/forward cache: this document is the one shown, in a layout
  // that may have changed while it was away.
  w.addEventListener('pageshow', function (event) {
    try {
      if (event && event.persisted === true) {
        sayShown = true;
        layoutChanged();
      }
    } catch (e) { /* never throw into the event loop */ }
  });
  for (var request in CAPTURE_REQUESTS) { w.addEventListener(request, captureRequest, true); }
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
