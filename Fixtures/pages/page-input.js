// The fixture pages' input (written for this project; every page loads it before its own
// script). As real pages do, the pages take mouse, pen and touch alike through pointer
// events. Touch events are handled only for a touch no pointer event announced (an engine
// that delivers touch events without pointer events); a touch that produced pointer
// events is not handled twice: its pointerdown is matched to the touchstart that follows
// it at the same point, and that touch's touch events are then ignored (the touchstart is
// cancelled when the pointerdown was).
//
//   pageInput.onDown(element, handler)   handler(point, event) runs when a pointer goes down
//       on the element or inside it; it may return { move, up, cancel } (each optional,
//       called with (point, event)) to follow that pointer until it ends
//   pageInput.onAnyDown(handler)         handler(point, event) for every pointer down
//   point = { id, x, y (client coordinates), kind: 'touch' | 'pen' | 'mouse' }
//
// What the handlers saw goes on document.body.dataset: `events` (input events handled: a
// down, and the moves and ends of a pointer that went down; not hover moves, not the
// ignored touch events of a touch that had pointer events), `trusted` and `untrusted`
// (the same events by isTrusted), `replayed` (those that are replays by the page script:
// the event carries scratchpadInkReplayed, or it is untrusted and arrives between
// scratchpadinkreplaystart and scratchpadinkreplayend, as the page script announces it to
// pages in another world) and `lastReplayTime` (the scratchpadInkTime of the last one,
// or the announcement's detail; '' before any).
(function () {
  'use strict';
  var d = document.body.dataset;
  ['events', 'trusted', 'untrusted', 'replayed'].forEach(function (name) { if (d[name] === undefined) { d[name] = '0'; } });
  if (d.lastReplayTime === undefined) { d.lastReplayTime = ''; }
  function bump(name) { d[name] = String(+d[name] + 1); }

  var announced = null; // the time of the replayed event being dispatched now, if announced
  window.addEventListener('scratchpadinkreplaystart', function (e) { announced = typeof e.detail === 'number' ? e.detail : null; }, true);
  window.addEventListener('scratchpadinkreplayend', function () { announced = null; }, true);

  function count(event) {
    bump('events');
    bump(event.isTrusted ? 'trusted' : 'untrusted');
    var time = null;
    if (event.scratchpadInkReplayed === true) { time = event.scratchpadInkTime; } else if (!event.isTrusted && announced !== null) { time = announced; }
    if (time !== null) {
      bump('replayed');
      d.lastReplayTime = String(time);
    }
  }

  var downHandlers = [], anyDownHandlers = [];
  var following = {};  // pointer key -> the trackers its down returned
  var unmatched = [];  // touch pointers down whose touchstart has not come: { key, x, y, event }
  var covered = {};    // touch identifiers whose pointer events were handled

  function begin(key, point, event, target) {
    var trackers = [];
    anyDownHandlers.forEach(function (handler) { handler(point, event); });
    for (var node = target; node; node = node.parentNode) {
      for (var i = 0; i < downHandlers.length; i++) {
        if (downHandlers[i].element !== node) { continue; }
        var tracker = downHandlers[i].handler(point, event);
        if (tracker) { trackers.push(tracker); }
      }
    }
    following[key] = trackers;
  }

  // Runs the trackers of a pointer that went down; returns whether there was one.
  function follow(key, point, event, phase) {
    var trackers = following[key];
    if (!trackers) { return false; }
    if (phase !== 'move') { delete following[key]; }
    trackers.forEach(function (tracker) { if (typeof tracker[phase] === 'function') { tracker[phase](point, event); } });
    return true;
  }

  function kind(pointerType) { return pointerType === 'touch' || pointerType === 'pen' ? pointerType : 'mouse'; }
  function pointerPoint(e) { return { id: 'p' + e.pointerId, x: e.clientX, y: e.clientY, kind: kind(e.pointerType) }; }
  function touchPoint(t) { return { id: 't' + t.identifier, x: t.clientX, y: t.clientY, kind: 'touch' }; }

  document.addEventListener('pointerdown', function (e) {
    var point = pointerPoint(e);
    if (point.kind === 'touch') { unmatched.push({ key: point.id, x: e.clientX, y: e.clientY, event: e }); }
    count(e);
    begin(point.id, point, e, e.target);
  }, true);
  [['pointermove', 'move'], ['pointerup', 'up'], ['pointercancel', 'cancel']].forEach(function (pair) {
    document.addEventListener(pair[0], function (e) {
      var point = pointerPoint(e);
      if (pair[1] !== 'move') { unmatched = unmatched.filter(function (u) { return u.key !== point.id; }); }
      if (following[point.id]) { count(e); }
      follow(point.id, point, e, pair[1]);
    }, true);
  });

  document.addEventListener('touchstart', function (e) {
    var handled = false;
    for (var i = 0; i < e.changedTouches.length; i++) {
      var t = e.changedTouches[i];
      var match = -1;
      for (var k = 0; k < unmatched.length && match < 0; k++) {
        if (Math.abs(unmatched[k].x - t.clientX) <= 2 && Math.abs(unmatched[k].y - t.clientY) <= 2) { match = k; }
      }
      if (match >= 0) {
        var pointer = unmatched.splice(match, 1)[0];
        covered[t.identifier] = true;
        if (pointer.event.defaultPrevented && e.cancelable) { e.preventDefault(); }
        continue;
      }
      if (!handled) { count(e); handled = true; }
      begin('t' + t.identifier, touchPoint(t), e, t.target);
    }
  }, true);
  [['touchmove', 'move'], ['touchend', 'up'], ['touchcancel', 'cancel']].forEach(function (pair) {
    document.addEventListener(pair[0], function (e) {
      var handled = false;
      for (var i = 0; i < e.changedTouches.length; i++) {
        var t = e.changedTouches[i];
        if (covered[t.identifier]) {
          if (pair[1] !== 'move') { delete covered[t.identifier]; }
          continue;
        }
        if (!handled && following['t' + t.identifier]) { count(e); handled = true; }
        follow('t' + t.identifier, touchPoint(t), e, pair[1]);
      }
    }, true);
  });

  window.pageInput = {
    onDown: function (element, handler) { downHandlers.push({ element: element, handler: handler }); },
    onAnyDown: function (handler) { anyDownHandlers.push(handler); }
  };
})();
