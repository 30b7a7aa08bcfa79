// rummylab serve, Watch a hand: trace a hand (or read an uploaded `trace --json` file), then step
// through its events.  Every step's state (each seat's cards, the stock, the discard pile, the
// table, the arrangements shown at a knock or going out, the outcome) is derived here from the
// events, whose schema is analysis/trace_cmd.py's docstring.
(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  var RANKS = 'A23456789TJQK', SUITS = 'SHDC';

  // ---- each step's state, from the events ---------------------------------------------------
  function take(hand, cards) {              // remove one copy of each card; the ones not there
    var missing = [];
    cards.forEach(function (c) {
      var i = hand.indexOf(c);
      if (i < 0) { missing.push(c); } else { hand.splice(i, 1); }
    });
    return missing;
  }

  // An event key that shows an arrangement (the knocker's melds and deadwood, the defender's
  // lay-offs): its name says so and its value names cards.  Adapt ARRANGEMENT as keys are added.
  var ARRANGEMENT = /meld|deadwood|lay_?off|arrangement/i;
  var PLAIN = ['hand', 'turn', 'seat', 'event', 'cards', 'table', 'owners', 'kinds', 'fill'];
  function namesCards(v) {
    if (RL.isCard(v)) { return true; }
    if (v && typeof v === 'object') { return Object.keys(v).some(function (k) { return namesCards(v[k]); }); }
    return false;
  }
  function arrangements(e) {
    return Object.keys(e).filter(function (k) {
      return PLAIN.indexOf(k) < 0 && ARRANGEMENT.test(k) && namesCards(e[k]);
    }).map(function (k) { return {key: k, value: e[k], seat: e.seat, event: e.event}; });
  }

  function apply(s, e) {                    // state s after event e (s is a fresh copy)
    var hand = e.seat >= 0 ? s.hands[e.seat] : null, lost = [];
    s.fresh = [];
    switch (e.event) {
      case 'deal': s.hands[e.seat] = e.cards.slice(); s.stock -= e.cards.length; break;
      case 'upcard': s.pile = s.pile.concat(e.cards); s.stock -= e.cards.length; break;
      case 'draw': hand.push.apply(hand, e.cards); s.stock -= e.cards.length; s.fresh = e.cards; break;
      case 'take': hand.push.apply(hand, e.cards); s.pile = s.pile.slice(0, s.pile.length - e.cards.length);
        s.fresh = e.cards; break;
      case 'discard': lost = take(hand, e.cards); s.pile = s.pile.concat(e.cards); break;
      case 'meld': case 'lay_off': lost = take(hand, e.cards); break;
      case 'swap': lost = take(hand, e.cards); hand.push('X'); s.fresh = ['X']; break;
      case 'move': lost = take(hand, e.fill || []); break;
      case 'restock': case 'turn_over':      // the pile's bottom cards become the new stock
        s.pile = s.pile.slice(Math.max(0, e.count - s.stock)); s.stock = e.count; break;
      case 'outcome': s.outcome = e; break;
    }
    if (e.table) { s.table = e.table; s.owners = e.owners || []; s.kinds = e.kinds || []; }
    s.shown = s.shown.concat(arrangements(e));
    if (lost.length) { s.problem = 'seat ' + e.seat + ' plays ' + lost.join(' ') + ', which it does not hold'; }
    s.event = e;
    return s;
  }

  function replay(events) {                 // [state after event 0, after event 1, ...]
    var start = events[0], n = start.players, pack = 0, states = [];
    Object.keys(start.pack).forEach(function (c) { pack += start.pack[c]; });
    var s = {hands: [], stock: pack, pile: [], table: [], owners: [], kinds: [], shown: [],
             outcome: null, problem: null};
    for (var i = 0; i < n; i++) { s.hands.push([]); }
    events.forEach(function (e) {
      s = apply({hands: s.hands.map(function (h) { return h.slice(); }), stock: s.stock, pile: s.pile,
                 table: s.table, owners: s.owners, kinds: s.kinds, shown: s.shown, outcome: s.outcome,
                 problem: s.problem}, e);
      states.push(s);
    });
    return states;
  }

  // ---- the readable line of an event ----------------------------------------------------------
  var LINES = {
    start: 'hand {hand} of seed {seed}: {variant}, {players} players ({strategies})',
    deal: 'seat {seat} is dealt {cards}', upcard: 'upcard {cards}',
    draw: 'seat {seat} draws {cards} from the stock', take: 'seat {seat} takes {cards} from the discard pile',
    pass: 'seat {seat} passes the upcard', stock_out: 'seat {seat} cannot draw: the stock is out',
    discard: 'seat {seat} discards {cards} ({word} {deadwood})', knock: 'seat {seat} knocks with {word} {deadwood}',
    meld: 'seat {seat} lays down {cards}', lay_off: 'seat {seat} lays off {cards} on meld {meld}',
    swap: 'seat {seat} swaps {cards} for the joker of meld {meld}',
    move: 'seat {seat} moves the joker of meld {meld} to the {to} end of its run, {fill} in its place',
    move_end: 'seat {seat} moves the joker of meld {meld} to the {to} end of its run',
    drop: 'seat {seat} drops with {word} {deadwood}',
    restock: 'the discard pile but its top card is turned over: {count} cards form the new stock',
    turn_over: 'the whole discard pile is turned over: {count} cards form the new stock',
    end: 'the hand ends: {outcome_name}', outcome: 'outcome: {outcome_name}'
  };
  function line(e, word) {
    var key = e.event;
    if (key === 'pass' && !e.cards.length) { key = 'stock_out'; }
    if (key === 'move' && !(e.fill || []).length) { key = 'move_end'; }
    var values = {word: word, cards: e.cards.join(' '), fill: (e.fill || []).join(' '),
                  strategies: (e.strategies || []).join(', ')};
    return (LINES[key] || e.event + ' {cards}').replace(/\{(\w+)\}/g, function (m, k) {
      var v = k in values ? values[k] : e[k];
      return v === undefined ? '' : String(v);
    }).replace(/\s+$/, '');
  }

  // ---- drawing ----------------------------------------------------------------------------------
  function order(c) { return c === 'X' ? 99 : SUITS.indexOf(c[1]) * 16 + RANKS.indexOf(c[0]); }
  function sorted(cards) { return cards.slice().sort(function (a, b) { return order(a) - order(b); }); }

  function cardRow(cards, opts) {
    var row = document.createElement('div'), fresh = (opts && opts.fresh || []).slice();
    row.className = 'cards';
    cards.forEach(function (c) {
      var i = fresh.indexOf(c);
      if (i >= 0) { fresh.splice(i, 1); }
      row.appendChild(RL.card(c, {faceDown: opts && opts.faceDown, picked: i >= 0}));
    });
    return row;
  }

  function el(tag, cls, text) {
    var x = document.createElement(tag);
    if (cls) { x.className = cls; }
    if (text !== undefined) { x.textContent = text; }
    return x;
  }

  function standsFor(meld, kind) {          // the text each joker of a meld stands for, by position
    var k = meld.findIndex(function (c) { return c !== 'X'; });
    if (k < 0) { return meld.map(function () { return ''; }); }
    var r = RANKS.indexOf(meld[k][0]);
    return meld.map(function (c, j) {
      if (c !== 'X') { return ''; }
      return kind === 'run' ? RANKS[(r + j - k + 26) % 13] + meld[k][1] : RANKS[r];
    });
  }

  function drawTable(s) {
    var box = $('table-melds');
    box.textContent = '';
    $('table-box').classList.toggle('hidden', !s.table.length && !W.openGame);
    if (!s.table.length) { box.appendChild(el('span', 'status', 'no melds yet')); }
    s.table.forEach(function (meld, i) {
      var m = el('div', 'meld'), notes = standsFor(meld, s.kinds[i]);
      m.dataset.meld = i;
      m.appendChild(el('span', 'meld-label', i + (s.owners[i] !== undefined ? ' \u00b7 seat ' + s.owners[i] : '')));
      meld.forEach(function (c, j) { m.appendChild(RL.card(c, {note: notes[j] ? '=' + notes[j] : ''})); });
      box.appendChild(m);
    });
  }

  function drawSeats(s) {
    var box = $('seats'), start = W.events[0], all = $('show-all').checked;
    box.textContent = '';
    s.hands.forEach(function (hand, seat) {
      var up = all || seat === W.follow, sec = el('section', 'seat');
      sec.dataset.seat = seat;
      sec.dataset.count = hand.length;
      if (seat === s.event.seat) { sec.classList.add('turn'); }
      if (seat === W.follow) { sec.classList.add('followed'); }
      sec.appendChild(el('h3', '', 'Seat ' + seat + ' \u00b7 ' + (start.strategies[seat] || '') + ' \u00b7 ' +
        hand.length + ' card' + (hand.length === 1 ? '' : 's') + (start.dealer === seat ? ' \u00b7 dealer' : '')));
      sec.appendChild(cardRow(up ? sorted(hand) : hand, {faceDown: !up, fresh: seat === s.event.seat ? s.fresh : []}));
      box.appendChild(sec);
    });
  }

  function drawValue(v, box) {              // an arrangement's value: cards, groups of cards, labelled parts
    if (Array.isArray(v) && v.length && v.every(RL.isCard)) { box.appendChild(cardRow(v)); return; }
    if (Array.isArray(v)) {
      var g = el('div', 'groups');
      v.forEach(function (x) { var m = el('div', 'meld'); drawValue(x, m); g.appendChild(m); });
      box.appendChild(g);
    } else if (v && typeof v === 'object') {
      Object.keys(v).forEach(function (k) {
        var part = el('div', 'part');
        part.appendChild(el('span', 'meld-label', k.replace(/_/g, ' ')));
        drawValue(v[k], part);
        box.appendChild(part);
      });
    } else if (RL.isCard(v)) { box.appendChild(RL.card(v)); } else { box.appendChild(el('span', '', String(v))); }
  }

  function drawArrangements(s) {
    var box = $('arrangement');
    box.textContent = '';
    $('arrangement-box').classList.toggle('hidden', !s.shown.length);
    s.shown.forEach(function (a) {
      var part = el('div', 'part');
      part.dataset.key = a.key;
      part.appendChild(el('h3', '', (a.seat >= 0 ? 'seat ' + a.seat + ', ' : '') + a.event + ': ' + a.key.replace(/_/g, ' ')));
      drawValue(a.value, part);
      box.appendChild(part);
    });
  }

  function drawOutcome(s) {
    var box = $('outcome'), o = s.outcome;
    box.classList.toggle('hidden', !o);
    if (!o) { return; }
    var n = W.events[0].players, cols = Object.keys(o.outcome), bases = [], rest = [];
    cols.forEach(function (c) {              // per-seat columns: score0 .. score{n-1}
      var m = /^(.*?)(\d+)$/.exec(c);
      if (m && +m[2] < n && cols.indexOf(m[1] + (n - 1)) >= 0) {
        if (bases.indexOf(m[1]) < 0) { bases.push(m[1]); }
      } else { rest.push(c); }
    });
    $('outcome-name').textContent = o.outcome_name;
    var head = '<tr><th>seat</th>' + bases.map(function (b) { return '<th>' + b + '</th>'; }).join('') + '</tr>';
    var rows = '';
    for (var seat = 0; seat < n; seat++) {
      rows += '<tr data-seat="' + seat + '"><td>' + seat + '</td>' + bases.map(function (b) {
        return '<td class="n">' + o.outcome[b + seat] + '</td>'; }).join('') + '</tr>';
    }
    $('outcome-seats').innerHTML = head + rows;
    $('outcome-rest').textContent = rest.map(function (c) { return c + ' ' + o.outcome[c]; }).join(' \u00b7 ');
  }

  function draw() {
    var s = W.states[W.at], word = W.events[0].hand_word || 'deadwood';
    $('step').value = W.at;
    $('step-label').textContent = 'step ' + W.at + ' of ' + (W.states.length - 1) + ' \u00b7 turn ' + s.event.turn;
    $('event-line').textContent = line(s.event, word);
    $('stock-count').textContent = s.stock;
    $('stock').dataset.count = s.stock;
    $('pile').dataset.count = s.pile.length;
    $('pile-top').textContent = '';
    $('pile-top').appendChild(s.pile.length ? RL.card(s.pile[s.pile.length - 1]) : el('span', 'status', 'empty'));
    $('pile-count').textContent = s.pile.length;
    $('problem').textContent = s.problem || '';
    $('prev').disabled = W.at === 0;
    $('next').disabled = W.at === W.states.length - 1;
    drawSeats(s);
    drawTable(s);
    drawArrangements(s);
    drawOutcome(s);
  }

  // ---- the player -----------------------------------------------------------------------------
  var W = {events: [], states: [], at: 0, follow: 0, openGame: false, replay: replay, line: line};
  RL.watch = W;                              // for a console: RL.watch.states[k]

  W.load = function (events, argv) {
    var start = events[0], follow = $('follow');
    W.events = events;
    W.states = replay(events);
    W.openGame = events.some(function (e) { return e.table; });
    W.at = W.follow = 0;
    follow.textContent = '';
    for (var seat = 0; seat < start.players; seat++) {
      var o = el('option', '', 'seat ' + seat + ' (' + (start.strategies[seat] || '?') + ')');
      o.value = seat;
      follow.appendChild(o);
    }
    $('step').max = W.states.length - 1;
    $('watch-title').textContent = start.variant + ', ' + start.players + ' players: hand ' + start.hand +
      ' of seed ' + start.seed;
    $('argv').textContent = argv ? 'rummylab ' + argv.join(' ') + ' --json' : '';
    $('player').classList.remove('hidden');
    draw();
    $('player').scrollIntoView();
    $('next').focus();
  };

  W.go = function (k) {
    if (!W.states.length) { return; }
    W.at = Math.max(0, Math.min(W.states.length - 1, k));
    draw();
  };

  // ---- asking for a hand, or reading a file -----------------------------------------------------
  var ALIASES = {strategy: 'strategies', hands: 'hand', variants: 'variant'};
  function status(text) { $('status').textContent = text; }

  function clearErrors() {
    document.querySelectorAll('.field-error').forEach(function (x) { x.textContent = ''; });
    document.querySelectorAll('.invalid').forEach(function (x) { x.classList.remove('invalid'); });
    $('note').classList.add('hidden');
  }

  function showError(detail, field) {       // the sentence beside its field (else above the form)
    field = ALIASES[field] || field;
    var box = field && document.querySelector('.field-error[data-for="' + field + '"]');
    (box || $('form-error')).textContent = detail;
    var input = field && document.getElementsByName(field)[0];
    if (input) { input.classList.add('invalid'); }
  }

  function fields(form) {
    var p = {variant: form.variant.value};
    ['players', 'strategies', 'rule_set', 'seed', 'hand'].forEach(function (k) {
      var v = form[k].value.trim();
      if (v !== '') { p[k] = v; }
    });
    var rules = form.rule.value.split(/[\s,;]+/).filter(Boolean);
    if (rules.length) { p.rule = rules; }
    return p;
  }

  function answer(r) { return r.json().then(function (d) { return {ok: r.ok, d: d}; }); }

  function listen(job, place) {             // the job's events: its place in line, a compile note, the hand
    var source = new EventSource('/api/jobs/' + job + '/events'), over = false;
    function on(event, f) { source.addEventListener(event, function (m) { f(m.data && JSON.parse(m.data)); }); }
    function finish(text) { over = true; $('trace').disabled = false; status(text); }
    status(place ? 'waiting in line: place ' + place : 'tracing the hand\u2026');
    on('queued', function (d) { status('waiting in line: place ' + d.place); });
    on('started', function () { status('tracing the hand\u2026'); });
    on('note', function (d) { $('note').textContent = d; $('note').classList.remove('hidden'); });
    on('result', function (d) { finish(''); $('note').classList.add('hidden'); W.load(d.events, d.argv); });
    on('failed', function (d) { finish(d); });
    on('error', function (d) {              // the job's error (with data), or the stream's end
      if (d) { finish(''); showError(d.message, d.field); return; }
      source.close();                       // the server ends the stream after the last event
      if (!over) { finish('the connection to the server closed; trace again'); }
    });
  }

  function trace(ev) {                      // POST /api/jobs/trace, then its events
    ev.preventDefault();
    clearErrors();
    $('trace').disabled = true;
    status('sending\u2026');
    fetch('/api/jobs/trace', {method: 'POST', headers: {'Content-Type': 'application/json'},
                              body: JSON.stringify(fields(ev.target))})
      .then(answer).then(function (a) {
        if (a.ok) { listen(a.d.job, a.d.place); return; }
        $('trace').disabled = false;
        status('');
        showError(a.d.detail, a.d.field);
      }).catch(function () { $('trace').disabled = false; status('the server did not answer'); });
  }

  function upload() {
    var file = $('upload').files[0];
    if (!file) { return; }
    clearErrors();
    status('reading ' + file.name + '\u2026');
    file.text().then(function (text) {
      return fetch('/api/trace/upload', {method: 'POST', headers: {'Content-Type': 'text/plain'}, body: text});
    }).then(answer).then(function (a) {
      status('');
      if (a.ok) { W.load(a.d.events, null); } else { showError(a.d.detail, 'upload'); }
    }).catch(function () { status('the server did not answer'); });
  }

  function key(ev) {                        // left / right arrows step (not while typing in a field)
    var t = ev.target, typing = /^(TEXTAREA|SELECT)$/.test(t.tagName) || (t.tagName === 'INPUT' && t.type !== 'checkbox');
    if (typing || !W.states.length || ev.altKey || ev.ctrlKey || ev.metaKey) { return; }
    var to = {ArrowLeft: W.at - 1, ArrowRight: W.at + 1, Home: 0, End: W.states.length - 1}[ev.key];
    if (to !== undefined) { ev.preventDefault(); W.go(to); }
  }

  document.addEventListener('DOMContentLoaded', function () {
    $('ask').addEventListener('submit', trace);
    $('upload').addEventListener('change', upload);
    $('prev').addEventListener('click', function () { W.go(W.at - 1); });
    $('next').addEventListener('click', function () { W.go(W.at + 1); });
    $('step').addEventListener('input', function () { W.go(+this.value); });
    $('follow').addEventListener('change', function () { W.follow = +this.value; draw(); });
    $('show-all').addEventListener('change', function () { if (W.states.length) { draw(); } });
    document.addEventListener('keydown', key);
  });
})();
