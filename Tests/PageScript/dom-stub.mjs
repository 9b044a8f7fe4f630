// A small, honest stand-in for the parts of the browser the page script touches:
// window, document, elements with layout rectangles, a few selector forms, scrolling,
// events, a MutationObserver the test triggers, and fake timers. Not a DOM.
//
// Layout: every element has a rectangle in page (document) coordinates; its bounding
// client rect is that rectangle minus the current scroll offset, as in a browser.
// Paint order is document order, so later elements (and children) are on top.
//
// Events: element -> ... -> html -> document -> window is the propagation path (capture
// phase down, target, bubble phase up when the event bubbles); a listener that throws is
// reported in `page.errors`, not thrown to the dispatcher, as in a browser. Synthesized
// events are untrusted. The constructors PointerEvent, MouseEvent, TouchEvent, Touch and
// CustomEvent keep their init dictionary's fields; createPage can leave any of them out.
import fs from 'node:fs';
import vm from 'node:vm';

export const SCRIPT_PATH = new URL('../../Sources/HitTestBridge/Resources/scratchpad-ink-page.js', import.meta.url);
export const SCRIPT_SOURCE = fs.readFileSync(SCRIPT_PATH, 'utf8');
// The document id the script draws from the stand-in's crypto.getRandomValues when a page
// is created with the default `randomWords`.
export const DOCUMENT = '0123456789abcdef';

// Supported: a comma-separated list of `[attr]`, `.class`, `#id` and `tag`. Anything
// else throws a SyntaxError, as a browser does for selectors it cannot parse.
function parseSelector(selector) {
  if (typeof selector !== 'string') throw new SyntaxError(`not a selector: ${selector}`);
  return selector.split(',').map((part) => {
    const s = part.trim();
    let m;
    if ((m = /^\[([A-Za-z_][\w-]*)\]$/.exec(s))) return (el) => el.hasAttribute(m[1]);
    if ((m = /^\.([A-Za-z_][\w-]*)$/.exec(s))) return (el) => el.className.split(/\s+/).includes(m[1]);
    if ((m = /^#([A-Za-z_][\w-]*)$/.exec(s))) return (el) => el.id === m[1];
    if ((m = /^([A-Za-z][A-Za-z0-9]*)$/.exec(s))) return (el) => el.tagName === m[1].toUpperCase();
    throw new SyntaxError(`'${selector}' is not a valid selector (in this stand-in)`);
  });
}

class EventTargetBase {
  constructor(page) { this.listeners = []; this.eventPage = page; }
  addEventListener(type, listener, options) { this.listeners.push({ type, listener, options }); }
  // The browser's dispatch: capture from window down, then the target, then bubbling up.
  dispatchEvent(event) {
    const path = [];
    for (let node = this; node; node = node.parentTarget) path.push(node);
    event.target = this;
    const run = (node, phase) => {
      if (event.propagationStopped) return;
      event.currentTarget = node;
      event.eventPhase = phase;
      for (const entry of [...node.listeners]) {
        if (entry.type !== event.type) continue;
        const capture = entry.options === true || !!(entry.options && entry.options.capture);
        if (phase === 1 && !capture) continue;
        if (phase === 3 && capture) continue;
        try {
          if (typeof entry.listener === 'function') entry.listener.call(node, event);
          else entry.listener.handleEvent(event);
        } catch (error) { this.eventPage.errors.push(error); }
      }
    };
    for (let i = path.length - 1; i > 0; i -= 1) run(path[i], 1);
    run(this, 2);
    if (event.bubbles) for (let i = 1; i < path.length; i += 1) run(path[i], 3);
    event.currentTarget = null;
    event.eventPhase = 0;
    return !event.defaultPrevented;
  }
}

class EventTargetStub extends EventTargetBase {
  constructor(page) { super(page); }
  removeEventListener(type, listener) {
    this.listeners = this.listeners.filter((l) => !(l.type === type && l.listener === listener));
  }
  dispatch(type, fields = {}) {
    for (const entry of [...this.listeners]) {
      if (entry.type !== type) continue;
      if (entry.options && entry.options.once) this.removeEventListener(type, entry.listener);
      entry.listener.call(this, { ...fields, type, target: this });
    }
  }
  listenersFor(type) { return this.listeners.filter((l) => l.type === type); }
}

class FakeElement extends EventTargetBase {
  constructor(page, tagName, { id = '', className = '', attributes = {}, rect = { x: 0, y: 0, width: 0, height: 0 } } = {}) {
    super(page);
    this.page = page;
    this.tagName = tagName.toUpperCase();
    this.id = id;
    this.className = className;
    this.attributes = new Map(Object.entries(attributes));
    this.rect = rect; // page coordinates
    this.parentElement = null;
    this.children = [];
  }

  appendChild(child) {
    child.parentElement = this;
    this.children.push(child);
    return child;
  }

  hasAttribute(name) { return this.attributes.has(name); }
  getAttribute(name) { return this.attributes.has(name) ? this.attributes.get(name) : null; }

  matches(selector) { return parseSelector(selector).some((test) => test(this)); }

  closest(selector) {
    const tests = parseSelector(selector);
    for (let node = this; node; node = node.parentElement) {
      if (tests.some((test) => test(node))) return node;
    }
    return null;
  }

  getBoundingClientRect() {
    const { x, y, width, height } = this.rect;
    const left = x - this.page.window.scrollX, top = y - this.page.window.scrollY;
    return { x: left, y: top, left, top, width, height, right: left + width, bottom: top + height };
  }

  get parentTarget() { return this.parentElement ?? this.page.document; }

  remove() {
    if (!this.parentElement) return;
    this.parentElement.children = this.parentElement.children.filter((c) => c !== this);
    this.parentElement = null;
  }

  contains(pageX, pageY) {
    const { x, y, width, height } = this.rect;
    return pageX >= x && pageX < x + width && pageY >= y && pageY < y + height;
  }
}

export class FakeClock {
  constructor() { this.now = 0; this.timers = []; this.nextId = 1; }
  setTimeout(fn, ms = 0) {
    const id = this.nextId++;
    this.timers.push({ id, at: this.now + Math.max(0, Number(ms) || 0), fn });
    return id;
  }
  clearTimeout(id) { this.timers = this.timers.filter((t) => t.id !== id); }
  get pending() { return this.timers.length; }
  // Runs, in time order, every timer due within the next `ms` milliseconds.
  advance(ms) {
    const end = this.now + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.now = due.at;
      due.fn();
    }
    this.now = end;
  }
}

// Event constructors, fresh for each page (a page may replace or remove its own).
function makeEventTypes(webkitTouch) {
  class Event {
    constructor(type, init = {}) {
      if (arguments.length === 0) throw new TypeError('Event needs a type');
      this.type = String(type);
      this.bubbles = !!init.bubbles;
      this.cancelable = !!init.cancelable;
      this.composed = !!init.composed;
      this.defaultPrevented = false;
      this.propagationStopped = false;
      this.target = null;
      this.currentTarget = null;
      this.eventPhase = 0;
    }
    get isTrusted() { return false; }
    initEvent(type, bubbles, cancelable) { Object.assign(this, { type: String(type), bubbles: !!bubbles, cancelable: !!cancelable }); }
    preventDefault() { if (this.cancelable) this.defaultPrevented = true; }
    stopPropagation() { this.propagationStopped = true; }
  }
  class CustomEvent extends Event {
    constructor(type, init = {}) { super(type, init); this.detail = init.detail ?? null; }
  }
  class MouseEvent extends Event {
    constructor(type, init = {}) {
      super(type, init);
      for (const [k, d] of [['clientX', 0], ['clientY', 0], ['screenX', 0], ['screenY', 0], ['button', 0], ['buttons', 0], ['detail', 0]]) {
        this[k] = init[k] ?? d;
      }
    }
  }
  class PointerEvent extends MouseEvent {
    constructor(type, init = {}) {
      super(type, init);
      for (const [k, d] of [['pointerId', 0], ['pointerType', ''], ['isPrimary', false], ['pressure', 0], ['width', 1], ['height', 1]]) {
        this[k] = init[k] ?? d;
      }
    }
  }
  class Touch {
    constructor(init) {
      if (webkitTouch && init !== TOUCH_FACTORY) throw new TypeError('Illegal constructor');
      if (webkitTouch) return;
      if (!init || typeof init.identifier !== 'number' || !init.target) throw new TypeError('Touch needs an identifier and a target');
      Object.assign(this, { clientX: 0, clientY: 0, pageX: 0, pageY: 0, screenX: 0, screenY: 0, force: 0 }, init);
    }
  }
  class TouchList {
    constructor(touches) { touches.forEach((t, i) => { this[i] = t; }); this.length = touches.length; }
    item(i) { return this[i] ?? null; }
    *[Symbol.iterator]() { for (let i = 0; i < this.length; i++) yield this[i]; }
  }
  class TouchEvent extends Event {
    constructor(type, init = {}) {
      if (webkitTouch) {
        for (const name of ['touches', 'targetTouches', 'changedTouches']) {
          if (init[name] !== undefined && !(init[name] instanceof TouchList)) throw new TypeError('Type error');
        }
      }
      super(type, init);
      // WebIDL sequences are read through their iterator.
      this.touches = [...(init.touches ?? [])];
      this.targetTouches = [...(init.targetTouches ?? [])];
      this.changedTouches = [...(init.changedTouches ?? [])];
    }
  }
  // WebKit's legacy factories: integer positions, client = page - scroll at creation.
  const legacy = (window, document) => ({
    createTouch(view, target, identifier, pageX, pageY, screenX, screenY, radiusX, radiusY, rotationAngle, force) {
      const touch = new Touch(TOUCH_FACTORY);
      const int = (v) => Math.trunc(Number(v)) | 0;
      Object.assign(touch, { identifier: int(identifier), target, pageX: int(pageX), pageY: int(pageY),
        clientX: int(pageX) - window.scrollX, clientY: int(pageY) - window.scrollY, screenX: int(screenX), screenY: int(screenY),
        radiusX: int(radiusX), radiusY: int(radiusY), rotationAngle: Number(rotationAngle), force: Number(force), view });
      return touch;
    },
    createTouchList(...touches) { return new TouchList(touches); },
  });
  // document.createEvent('TouchEvent'): an uninitialised TouchEvent (type '') whose
  // initTouchEvent takes iOS WebKit's arguments (type first) or the older order (lists
  // first), or that has none (initEvent only).
  const createEventWith = (order) => function createEvent(name) {
    if (name !== 'TouchEvent') throw new Error('NotSupportedError');
    const event = Object.create(TouchEvent.prototype);
    Object.assign(event, { type: '', bubbles: false, cancelable: false, composed: false, defaultPrevented: false,
      propagationStopped: false, target: null, currentTarget: null, eventPhase: 0, touches: [], targetTouches: [], changedTouches: [] });
    const list = (l) => { if (l !== null && !(l instanceof TouchList)) throw new TypeError('not a TouchList'); return l ? [...l] : []; };
    if (order === 'ios') {
      event.initTouchEvent = function (type, bubbles, cancelable, view, detail, sx, sy, cx, cy, c, a, s, m, touches, targetTouches, changedTouches) {
        Object.assign(this, { type: String(type), bubbles: !!bubbles, cancelable: !!cancelable, view,
          touches: list(touches), targetTouches: list(targetTouches), changedTouches: list(changedTouches) });
      };
    } else if (order === 'lists-first') {
      event.initTouchEvent = function (touches, targetTouches, changedTouches, type, view) {
        const lists = [list(touches), list(targetTouches), list(changedTouches)];
        Object.assign(this, { type: String(type), bubbles: true, cancelable: true, view,
          touches: lists[0], targetTouches: lists[1], changedTouches: lists[2] });
      };
    }
    if (order === 'none') Object.assign(event, { touches: null, targetTouches: null, changedTouches: null }); // as Chromium's
    return event;
  };
  return { types: { Event, CustomEvent, MouseEvent, PointerEvent, Touch, TouchEvent }, legacy, createEventWith, TouchList };
}
const TOUCH_FACTORY = Symbol('createTouch');

// Creates a page. Options: readyState ('complete'), visibilityState ('visible'; null
// leaves document.visibilityState undefined, as in browsers without the Page Visibility
// API), viewport size, and which message channels exist: `webkit`
// (window.webkit.messageHandlers.scratchpadInk) and `host` (window.scratchpadInkHost);
// `omitEvents`: event constructors the window lacks (e.g. ['Touch', 'TouchEvent']);
// `webkitTouch`: touches as WebKit makes them: `new Touch` is an illegal constructor,
// document.createTouch and document.createTouchList exist, and the TouchEvent
// constructor takes TouchList objects only (arrays throw). `omitLegacy`: legacy factories
// to leave out of the document after that (e.g. ['createTouch']). `createEvent`: a
// document.createEvent('TouchEvent') whose initTouchEvent takes iOS WebKit's arguments
// ('ios'), the older lists-first order ('lists-first'), or that has only initEvent and
// null lists ('none', as Chromium's).
// `randomWords`: the 32-bit words window.crypto.getRandomValues hands out, in turn (the
// page script draws its document id from them: the default makes it DOCUMENT); `crypto:
// false` leaves window.crypto out (the script then falls back to Math.random).
// Every posted string lands in `page.posted` as { channel, text }.
export function createPage({ readyState = 'complete', visibilityState = 'visible', innerWidth = 800, innerHeight = 600,
  pageWidth = 2000, pageHeight = 4000, webkit = true, host = false, omitEvents = [], webkitTouch = false,
  omitLegacy = [], createEvent = null,
  crypto = true, randomWords = [0x01234567, 0x89abcdef] } = {}) {
  const page = { posted: [], observers: [], errors: [] };
  const clock = new FakeClock();
  const window = new EventTargetStub(page);
  const document = new EventTargetStub(page);
  Object.defineProperty(document, 'parentTarget', { get: () => window });
  page.window = window;
  page.document = document;
  page.clock = clock;

  const html = new FakeElement(page, 'html', { rect: { x: 0, y: 0, width: pageWidth, height: pageHeight } });
  const body = html.appendChild(new FakeElement(page, 'body', { rect: { x: 0, y: 0, width: pageWidth, height: pageHeight } }));
  page.body = body;

  const allElements = () => {
    const out = [];
    const walk = (el) => { out.push(el); el.children.forEach(walk); };
    walk(html);
    return out;
  };

  Object.assign(document, {
    readyState,
    ...(visibilityState === null ? {} : { visibilityState }),
    documentElement: html,
    body,
    querySelectorAll(selector) {
      const tests = parseSelector(selector);
      return allElements().filter((el) => tests.some((test) => test(el)));
    },
    querySelector(selector) { return this.querySelectorAll(selector)[0] ?? null; },
    elementFromPoint(vx, vy) {
      if (!(vx >= 0 && vx < window.innerWidth && vy >= 0 && vy < window.innerHeight)) return null;
      const px = vx + window.scrollX, py = vy + window.scrollY;
      const hits = allElements().filter((el) => el.contains(px, py));
      return hits.length ? hits[hits.length - 1] : html;
    },
  });

  class MutationObserver {
    constructor(callback) { this.callback = callback; this.targets = []; }
    observe(target, options) {
      this.targets.push({ target, options });
      if (!page.observers.includes(this)) page.observers.push(this);
    }
    disconnect() { page.observers = page.observers.filter((o) => o !== this); }
  }

  const { types: eventTypes, legacy, createEventWith } = makeEventTypes(webkitTouch);
  for (const name of Object.keys(eventTypes)) {
    if (!omitEvents.includes(name)) window[name] = eventTypes[name];
  }
  if (webkitTouch) Object.assign(document, legacy(window, document));
  for (const name of omitLegacy) delete document[name];
  if (createEvent) document.createEvent = createEventWith(createEvent);
  Object.assign(window, {
    document,
    scrollX: 0,
    scrollY: 0,
    screenX: 0,
    screenY: 0,
    innerWidth,
    innerHeight,
    MutationObserver,
    setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
    clearTimeout: (id) => clock.clearTimeout(id),
    performance: { now: () => clock.now },
  });
  window.window = window;
  if (crypto) {
    let next = 0;
    page.randomCalls = 0;
    window.crypto = {
      getRandomValues(array) {
        page.randomCalls += 1;
        for (let i = 0; i < array.length; i++) { array[i] = randomWords[next % randomWords.length]; next += 1; }
        return array;
      },
    };
  }

  page.installWebkit = () => {
    window.webkit = { messageHandlers: { scratchpadInk: { postMessage: (text) => page.posted.push({ channel: 'webkit', text }) } } };
  };
  page.installHost = () => {
    window.scratchpadInkHost = (text) => page.posted.push({ channel: 'host', text });
  };
  if (webkit) page.installWebkit();
  if (host) page.installHost();

  // Adds an element (to `parent`, default body) with a page-coordinate rect.
  page.add = (tagName, options = {}, parent = body) => parent.appendChild(new FakeElement(page, tagName, options));
  page.scrollTo = (x, y) => { window.scrollX = x; window.scrollY = y; };
  // Sets document.visibilityState and fires 'visibilitychange' on the document, as a
  // browser does when the tab or app goes to the background or comes back.
  page.setVisibility = (state) => { document.visibilityState = state; document.dispatch('visibilitychange'); };
  page.mutate = (records = [{ type: 'childList' }]) => {
    for (const observer of [...page.observers]) observer.callback(records, observer);
  };
  page.texts = () => page.posted.map((p) => p.text);
  page.messages = () => page.posted.map((p) => JSON.parse(p.text));
  page.clear = () => { page.posted.length = 0; };

  page.context = vm.createContext(window);
  page.run = (code) => vm.runInContext(code, page.context);
  page.load = () => { vm.runInContext(SCRIPT_SOURCE, page.context, { filename: 'scratchpad-ink-page.js' }); return window.scratchpadInk; };
  return page;
}
