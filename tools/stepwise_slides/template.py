"""The HTML page of a deck: its stylesheet (16:9 slides of 1280 x 720 CSS pixels; printed, one slide per page) and
its script (arrow keys, space, Page Up/Down, Home/End, `n` for the notes; each slide's text shrunk until it fits;
an image that failed to load replaced by a line that says so)."""
from typing import List

CSS = """
@page { size: 1280px 720px; margin: 0; }
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; background: #20232a; }
body { font-family: "DejaVu Sans", "Liberation Sans", "Helvetica Neue", Arial, sans-serif; color: #1b1f24; }
.deck { position: absolute; left: 50%; top: 50%; width: 1280px; height: 720px; margin: -360px 0 0 -640px; }
.slide { width: 1280px; height: 720px; background: #fff; overflow: hidden; position: relative;
         padding: 34px 56px 40px; display: none; flex-direction: column; font-size: 24px; line-height: 1.3; }
.slide.current, .slide.measure { display: flex; }
.slide.measure { position: absolute; left: 0; top: 0; visibility: hidden; }
.slide h1 { font-size: 46px; line-height: 1.15; margin: 0 0 24px; color: #12385f; }
.slide h2 { font-size: 32px; line-height: 1.15; margin: 0 0 14px; color: #12385f; flex: none;
            border-bottom: 3px solid #76b900; padding-bottom: 8px; }
.slide h3 { font-size: 1em; margin: 0; color: #12385f; }
.title-slide, .section-slide { justify-content: center; padding: 60px 110px; }
.title-slide { background: linear-gradient(135deg, #ffffff 60%, #eef6df); }
.title-slide h1 { font-size: 50px; border-left: 10px solid #76b900; padding-left: 24px; }
.title-slide p { margin: 6px 0 0 34px; }
.title-slide .subtitle { font-size: 28px; color: #3b4652; }
.title-slide .date { font-size: 22px; color: #555f6b; margin-top: 28px; }
.section-slide { background: #12385f; }
.section-slide h1 { color: #fff; font-size: 54px; border-left: 10px solid #76b900; padding-left: 24px; }
.section-slide .body { color: #dfe7ef; }
.body { flex: 1 1 auto; min-height: 0; display: flex; flex-direction: column; gap: 12px; overflow: hidden; }
.body > *, .column > * { flex: none; margin: 0; }
.body p, .column p { margin: 0; }
.columns { display: flex; gap: 28px; flex: 1 1 auto; min-height: 0; overflow: hidden; }
.column { min-width: 0; min-height: 0; display: flex; flex-direction: column; gap: 12px; overflow: hidden; }
.figure { flex: 1 1 auto; min-height: 0; display: flex; flex-direction: column; align-items: center;
          justify-content: center; margin: 0; overflow: hidden; }
.figure img { flex: 1 1 auto; min-height: 0; max-width: 100%; max-height: 100%; object-fit: contain; }
.figure figcaption { flex: none; font-size: 0.62em; color: #5b6570; margin-top: 4px; text-align: center; }
.column .figure { flex: 1 1 auto; }
pre { font-size: 0.66em; line-height: 1.28; background: #f3f5f7; border-left: 4px solid #76b900; padding: 8px 12px;
      margin: 0; overflow: hidden; white-space: pre; font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; }
code { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 0.92em; color: #0b4a2d; }
pre code { font-size: 1em; color: #1b1f24; }
table { border-collapse: collapse; font-size: 0.72em; line-height: 1.25; }
th { background: #12385f; color: #fff; font-weight: 600; padding: 4px 9px; }
td { padding: 3px 9px; border-bottom: 1px solid #d9dee3; }
tbody tr:nth-child(even) td { background: #f6f8fa; }
th code { color: #fff; }
ul, ol { margin: 0; padding-left: 1.2em; }
li { margin: 0 0 6px; }
a { color: #1d5fa5; text-decoration: none; }
.lesson { color: #12385f; font-size: 1.02em; }
.row { font-size: 0.72em; color: #2f3a44; background: #f2f8e8; border-radius: 4px; padding: 6px 10px; }
.comment { font-size: 0.76em; color: #2f3a44; }
.caption { font-size: 0.72em; color: #2f3a44; }
.device, .source { font-size: 0.64em; color: #5b6570; }
.notes { display: none; }
body.show-notes .slide.current .notes { display: block; position: absolute; left: 0; right: 0; bottom: 0;
  max-height: 45%; overflow: auto; background: #fffbe6; border-top: 2px solid #d9b300; padding: 10px 24px;
  font-size: 16px; }
.footer { position: absolute; left: 56px; right: 56px; bottom: 12px; font-size: 13px; color: #8a949e;
          display: flex; justify-content: space-between; }
.section-slide .footer { color: #9fb3c8; }
.broken { color: #b00020; font-weight: bold; }
@media print {
  html, body { background: #fff; }
  .deck { position: static; margin: 0; transform: none !important; width: auto; height: auto; }
  .slide { display: flex !important; break-after: page; page-break-after: always; }
  .slide:last-child { break-after: auto; page-break-after: auto; }
  .notes { display: none !important; }
}
"""

SCRIPT = """
(function () {
  var slides = Array.prototype.slice.call(document.querySelectorAll('.slide'));
  var deck = document.querySelector('.deck');
  var current = 0;
  function tooTall(slide) {
    var boxes = slide.querySelectorAll('.body, .column');
    for (var i = 0; i < boxes.length; i++) {
      if (boxes[i].scrollHeight > boxes[i].clientHeight + 1) return true;
    }
    return false;
  }
  function tooWide(box) {
    if (box.tagName === 'TABLE') {
      var parent = box.parentElement;
      return box.offsetWidth > parent.clientWidth + 1;
    }
    return box.scrollWidth > box.clientWidth + 1;
  }
  function fit(slide) {
    var visible = slide.classList.contains('current');
    if (!visible) slide.classList.add('measure');
    var size = 24;
    slide.style.fontSize = size + 'px';
    while (tooTall(slide) && size > 10) {
      size -= 1;
      slide.style.fontSize = size + 'px';
    }
    Array.prototype.forEach.call(slide.querySelectorAll('pre, table'), function (box) {
      var scale = 1;
      while (tooWide(box) && scale > 0.55) {
        scale -= 0.05;
        box.style.fontSize = (box.tagName === 'PRE' ? 0.66 : 0.72) * scale + 'em';
      }
    });
    if (!visible) slide.classList.remove('measure');
  }
  function checkImages() {
    var broken = 0;
    Array.prototype.forEach.call(document.querySelectorAll('img'), function (img) {
      if (!img.complete || img.naturalWidth === 0) {
        broken += 1;
        var line = document.createElement('p');
        line.className = 'broken';
        line.textContent = 'IMAGE FAILED TO LOAD: ' + (img.alt || '(no alt text)');
        img.parentNode.replaceChild(line, img);
      }
    });
    document.documentElement.setAttribute('data-broken-images', String(broken));
  }
  function scale() {
    var factor = Math.min(window.innerWidth / 1280, window.innerHeight / 720);
    deck.style.transform = 'scale(' + factor + ')';
  }
  function show(index) {
    current = Math.max(0, Math.min(slides.length - 1, index));
    slides.forEach(function (slide, i) { slide.classList.toggle('current', i === current); });
    if (history.replaceState) history.replaceState(null, '', '#' + (current + 1));
  }
  document.addEventListener('keydown', function (event) {
    var key = event.key;
    if (key === 'ArrowRight' || key === 'ArrowDown' || key === 'PageDown' || key === ' ' || key === 'Enter') {
      show(current + 1);
    } else if (key === 'ArrowLeft' || key === 'ArrowUp' || key === 'PageUp' || key === 'Backspace') {
      show(current - 1);
    } else if (key === 'Home') {
      show(0);
    } else if (key === 'End') {
      show(slides.length - 1);
    } else if (key === 'n' || key === 'N') {
      document.body.classList.toggle('show-notes');
    } else {
      return;
    }
    event.preventDefault();
  });
  document.addEventListener('click', function (event) {
    if (event.target.closest('a, .notes')) return;
    show(current + (event.clientX < window.innerWidth / 3 ? -1 : 1));
  });
  window.addEventListener('resize', scale);
  window.addEventListener('load', function () {
    checkImages();
    slides.forEach(fit);
    var start = parseInt((location.hash || '#1').slice(1), 10);
    show(isNaN(start) ? 0 : start - 1);
    scale();
    document.documentElement.setAttribute('data-fitted', 'yes');
  });
  show(0);
  scale();
})();
"""


def slide(kind: str, inner: str, notes: str, number: int, total: int, deck_title: str) -> str:
    """One slide's <section>: its content, its notes (hidden), its footer (the deck's title, its number)."""
    footer = "" if kind == "title-slide" else (f'<div class="footer"><span>{deck_title}</span>'
                                               f"<span>{number} / {total}</span></div>")
    aside = f'<aside class="notes">{notes}</aside>' if notes else ""
    return f'<section class="slide {kind}" id="slide-{number}">\n{inner}\n{aside}{footer}</section>'


def page(title: str, sections: List[str], images: int) -> str:
    """The whole HTML page."""
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{title}</title>\n"
            f"<meta name=\"generator\" content=\"stepwise tools/slides ({images} images inlined)\">\n"
            f"<style>{CSS}</style>\n</head>\n<body>\n<div class=\"deck\">\n" + "\n".join(sections) +
            f"\n</div>\n<script>{SCRIPT}</script>\n</body>\n</html>\n")

