// rummylab serve: a playing card as an element, shared by the pages.
//   RL.card("TD")                      -> <span class="card red" data-card="TD">10♦</span>
//   RL.card("X", {note: "7H"})         -> a joker, with a small line under it (what it stands for)
//   RL.card("", {faceDown: true})      -> a card back (no text, no data-card)
//   RL.card("AS", {picked: true, tag: "button"})
// A card text is rank + suit as the project writes it ("AS", "TD", "KH"), or "X" for a joker.
(function () {
  'use strict';
  var RL = window.RL = window.RL || {};
  var SUITS = {S: '\u2660', H: '\u2665', D: '\u2666', C: '\u2663'};
  var NAMES = {S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs'};
  var RANKS = {A: 'ace', T: '10', J: 'jack', Q: 'queen', K: 'king'};

  RL.isCard = function (text) {
    return typeof text === 'string' && /^([A2-9TJQK][SHDC]|X)$/.test(text);
  };

  RL.cardLabel = function (text) {          // "TD" -> "10 of diamonds"
    if (text === 'X') { return 'joker'; }
    return (RANKS[text[0]] || text[0]) + ' of ' + NAMES[text[1]];
  };

  RL.card = function (text, opts) {
    opts = opts || {};
    var el = document.createElement(opts.tag || 'span');
    el.className = 'card' + (opts.tag === 'button' ? '' : ' static');
    if (opts.faceDown) {
      el.classList.add('back');
      el.setAttribute('aria-label', 'a face-down card');
      return el;
    }
    el.dataset.card = text;
    el.title = RL.cardLabel(text);
    if (text === 'X') {
      el.classList.add('joker');
      el.textContent = 'Jkr';
    } else {
      el.textContent = (text[0] === 'T' ? '10' : text[0]) + SUITS[text[1]];
      if (text[1] === 'H' || text[1] === 'D') { el.classList.add('red'); }
    }
    if (opts.picked) { el.classList.add('picked'); }
    if (opts.note) {
      var small = document.createElement('small');
      small.textContent = opts.note;
      el.appendChild(small);
    }
    return el;
  };
})();
