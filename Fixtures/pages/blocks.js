// The blocks page's own input handlers (blocks.html, hostile.html), on page-input.js:
// drag a block with a finger, a pen or a mouse, drop to re-order; the state goes on
// document.body.dataset.
(function () {
  'use strict';
  var slots = [120, 240, 360, 480];
  var body = document.body;
  var blocks = Array.prototype.slice.call(document.querySelectorAll('.block'));
  function order() { return blocks.slice().sort(function (a, b) { return a.offsetLeft - b.offsetLeft; }); }
  function record() { body.dataset.order = order().map(function (b) { return b.id; }).join(','); }
  record();
  var dragging = null;
  pageInput.onAnyDown(function () { body.dataset.touches = String(+body.dataset.touches + 1); });
  function drop() {
    var moved = dragging.moved;
    var sorted = blocks.slice().sort(function (a, b) { return (a.offsetLeft + 48) - (b.offsetLeft + 48); });
    sorted.forEach(function (b, k) { b.style.left = slots[k] + 'px'; b.style.zIndex = ''; });
    dragging = null;
    if (moved) { body.dataset.drags = String(+body.dataset.drags + 1); }
    record();
  }
  blocks.forEach(function (block) {
    pageInput.onDown(block, function (point, event) {
      if (dragging) { return null; } // one drag at a time
      dragging = { block: block, dx: point.x - block.offsetLeft, moved: false };
      block.style.zIndex = 10;
      event.preventDefault();
      return {
        move: function (p) {
          dragging.block.style.left = (p.x - dragging.dx) + 'px';
          dragging.moved = true;
        },
        up: drop,
        cancel: drop
      };
    });
  });
  pageInput.onDown(document.getElementById('check-button'), function () {
    return { up: function () { body.dataset.taps = String(+body.dataset.taps + 1); } };
  });
})();
