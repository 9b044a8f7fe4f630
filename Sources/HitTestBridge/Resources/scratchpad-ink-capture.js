/*
 * scratchpad-ink-capture.js — pointer capture for replayed pointers, the exercise page's side.
 *
 * A touch the ink overlay took and the page claimed later is replayed into the page by
 * the page script (scratchpad-ink-page.js, "Replay") as synthesized pointer events. The
 * browser does not know those pointers: element.setPointerCapture(id) throws NotFoundError
 * for them, and drag code that captures on pointerdown (as drag libraries do) aborts. A
 * page that wants its drags to work on replayed pointers loads this script in its own
 * world, before its drag code, whatever world the page script runs in (the page's own, or
 * an isolated one such as a WKContentWorld, whose changes to prototypes the page never sees).
 *
 * It wraps Element.prototype.setPointerCapture, releasePointerCapture and
 * hasPointerCapture. Each calls the browser's own first: for a pointer the browser knows
 * (every trusted one) that is the whole call, unchanged. Only where the browser's own
 * throws (set, release) or says false (has) does it ask the page script, by dispatching
 * on the element a cancelable CustomEvent `scratchpadinksetpointercapture`,
 * `scratchpadinkreleasepointercapture` or `scratchpadinkhaspointercapture` whose detail is
 * the pointer id (a number: every world reads it). The page script cancels it when the id
 * is one of its replayed pointers, down and not yet up; then set and release return
 * normally and has returns whether the element holds the capture. Not cancelled (no page
 * script, another id, a pointer already up): the browser's own error is thrown, as before.
 * The page script then sends gotpointercapture and lostpointercapture and routes the
 * pointer's later events to the capturing element, as a browser does.
 *
 * Written for this project: a classic script, no dependencies; installs once per window.
 */
(function () {
  'use strict';
  var ElementType = window.Element, CustomEventType = window.CustomEvent;
  if (typeof ElementType !== 'function' || typeof CustomEventType !== 'function') { return; }
  var proto = ElementType.prototype;
  var nativeSet = proto.setPointerCapture, nativeRelease = proto.releasePointerCapture, nativeHas = proto.hasPointerCapture;
  if (typeof nativeSet !== 'function' || nativeSet.scratchpadInkCapture === true) { return; }

  // Whether the page script took the request for this element and pointer.
  function ask(element, what, pointerId) {
    if (typeof pointerId !== 'number') { return false; }
    try {
      var request = new CustomEventType('scratchpadink' + what + 'pointercapture',
                                        { detail: pointerId, cancelable: true, composed: true });
      return !element.dispatchEvent(request);
    } catch (e) { return false; }
  }

  function install(name, wrapper) {
    Object.defineProperty(wrapper, 'scratchpadInkCapture', { value: true });
    Object.defineProperty(proto, name, { value: wrapper, writable: true, configurable: true, enumerable: true });
  }

  install('setPointerCapture', function setPointerCapture(pointerId) {
    try { return nativeSet.call(this, pointerId); } catch (error) {
      if (ask(this, 'set', pointerId)) { return undefined; }
      throw error;
    }
  });
  if (typeof nativeRelease === 'function') {
    install('releasePointerCapture', function releasePointerCapture(pointerId) {
      try { return nativeRelease.call(this, pointerId); } catch (error) {
        if (ask(this, 'release', pointerId)) { return undefined; }
        throw error;
      }
    });
  }
  if (typeof nativeHas === 'function') {
    install('hasPointerCapture', function hasPointerCapture(pointerId) {
      return nativeHas.call(this, pointerId) || ask(this, 'has', pointerId);
    });
  }
})();
