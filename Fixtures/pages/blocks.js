// The blocks page's own touch handlers (blocks.html, hostile.html): drag a block, drop
// to re-order; the state goes on document.body.dataset.
(function () {
  'use strict';
  var slots = [120, 240, 360, 480];
  var body = document.body;
  var blocks = Array.prototype.slice.call(document.querySelectorAll('.block'));
  function order() { return blocks.slice().sort(function (a, b) { return a.offsetLeft - b.offsetLeft; }); }
  function record() { body.dataset.order = order().map(function (b) { return b.id; }).join(','); }
  record();
  var dragging = null;
  document.addEventListener('touchstart', function () { body.dataset.touches = String(+body.dataset.touches + 1); }, true);
  blocks.forEach(function (block) {
    block.addEventListener('touchstart', function (event) {
      var t = event.changedTouches[0];
      dragging = { block: block, id: t.identifier, dx: t.clientX - block.offsetLeft, moved: false };
      block.style.zIndex = 10;
      event.preventDefault();
    });
  });
  document.addEventListener('touchmove', function (event) {
    if (!dragging) { return; }
    for (var i = 0; i < event.changedTouches.length; i++) {
      var t = event.changedTouches[i];
      if (t.identifier !== dragging.id) { continue; }
      dragging.block.style.left = (t.clientX - dragging.dx) + 'px';
      dragging.moved = true;
    }
  });
  function drop(event) {
    if (!dragging) { return; }
    for (var i = 0; i < event.changedTouches.length; i++) {
      if (event.changedTouches[i].identifier !== dragging.id) { continue; }
      var moved = dragging.moved;
      var sorted = blocks.slice().sort(function (a, b) { return (a.offsetLeft + 48) - (b.offsetLeft + 48); });
      sorted.forEach(function (b, k) { b.style.left = slots[k] + 'px'; b.style.zIndex = ''; });
      dragging = null;
      if (moved) { body.dataset.drags = String(+body.dataset.drags + 1); }
      record();
      return;
    }
  }
  document.addEventListener('touchend', drop);
  document.addEventListener('touchcancel', drop);
  document.getElementById('check-button').addEventListener('touchend', function () {
    body.dataset.taps = String(+body.dataset.taps + 1);
  });
})();
