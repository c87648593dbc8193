"""HTML for people: the one page shell (inline CSS and JavaScript, no network), tables and numbers.

What the ``html`` output style (:mod:`sigfast.styles`) and the report (:mod:`sigfast.htmlreport`)
share. A page is self-contained: its styles and script are inline, figures are inline SVG, and
nothing is fetched (no font, no CDN); it works opened as a local file. Tables are sortable
(the header buttons, by mouse or keyboard), keyboard-navigable (arrow keys move between cells;
Home/End to the row's ends) and printable (a print stylesheet shows every section and hides the
controls).

A number shown in the report carries where it comes from: ``data-k`` (its path in the report's
JSON, keys joined by ``/``), ``data-s`` (the scale it is shown at) and ``data-f`` (the Python
format spec), so that a test can check every number on the page against the JSON.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import Any

__all__ = ["document", "esc", "num", "table", "table_of"]


def esc(s: Any) -> str:
    return html.escape(str(s), quote=True)


def fmt(v: float, f: str, scale: float = 1) -> str:
    """A number as shown: ``format(v * scale, f)``; not finite or None: an en dash."""
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "–"
    x = v * scale if scale != 1 else v
    return format(x, f)


def num(v: Any, key: str, f: str = ".4g", scale: float = 1, tag: str = "span", cls: str = "") -> str:
    """One number, with its JSON path (``key``), scale and format as attributes."""
    text = fmt(v, f, scale)
    c = f' class="{cls}"' if cls else ""
    s = f' data-s="{float(scale)!r}"' if scale != 1 else ""  # in full: the page's number is format(v * s)
    return f'<{tag}{c} data-k="{esc(key)}" data-f="{esc(f)}"{s}>{text}</{tag}>'


def table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    caption: str = "",
    sort_values: Sequence[Sequence[Any]] | None = None,
    numeric: Sequence[bool] | None = None,
    cls: str = "",
    row_attrs: Sequence[str] | None = None,
) -> str:
    """A sortable table of cells already in HTML. ``sort_values[r][c]``: the value a column sorts by
    (default: the cell's text); ``numeric[c]``: right-aligned, sorted as numbers."""
    numeric = numeric or [False] * len(header)
    head = "".join(
        f'<th scope="col"{" class=n" if numeric[c] else ""} aria-sort="none">'
        f'<button type="button" class="sort" data-col="{c}">{h}</button></th>'
        for c, h in enumerate(header)
    )
    body = []
    for r, row in enumerate(rows):
        cells = []
        for c, cell in enumerate(row):
            sv = "" if sort_values is None else sort_values[r][c]
            sv_attr = "" if sv is None or sv == "" else f' data-v="{esc(sv)}"'
            tagname = "th" if c == 0 and not numeric[0] else "td"
            scope = ' scope="row"' if tagname == "th" else ""
            cells.append(f"<{tagname}{scope}{' class=n' if numeric[c] else ''}{sv_attr}>{cell}</{tagname}>")
        extra = f" {row_attrs[r]}" if row_attrs else ""
        body.append(f"<tr{extra}>{''.join(cells)}</tr>")
    cap = f"<caption>{caption}</caption>" if caption else ""
    return (
        f'<div class="tw" tabindex="0" role="region" aria-label="{esc(_plain(caption) or "table")}">'
        f'<table class="grid {cls}">{cap}<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'
    )


def _plain(s: str) -> str:
    import re

    return re.sub(r"<[^>]+>", "", s)


def table_of(t: Any) -> str:
    """One :class:`sigfast.report.Table` (title, header, rows, notes and signature) as HTML: the
    ``html`` style's table renderer."""
    numeric = [all(_looks_numeric(r[c]) for r in t.rows) and bool(t.rows) for c in range(len(t.header))]
    rows = [[esc("" if v is None else v) for v in r] for r in t.rows]
    out = table([esc(h) for h in t.header], rows, caption=esc(t.title), numeric=numeric)
    notes = "".join(f"<p class=note>{esc(n)}</p>" for n in t.notes)
    sig = f'<p class="sig"><code>{esc(t.signature)}</code></p>' if t.signature else ""
    return f"<section>{out}{notes}{sig}</section>\n"


def _looks_numeric(v: Any) -> bool:
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return True
    try:
        float(str(v).replace(",", ""))
    except ValueError:
        return False
    return True


CSS = """
:root{--fg:#1b1b1b;--muted:#555;--line:#c8c8c8;--bg:#fff;--head:#f1f1f1;--accent:#1f4e99}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--fg);
 background:var(--bg);margin:0 auto;max-width:1280px;padding:0 1.2rem 3rem}
h1{font-size:1.5rem;margin:1.2rem 0 .3rem}h2{font-size:1.2rem;margin:2rem 0 .5rem;border-bottom:2px solid var(--line)}
h3{font-size:1.05rem;margin:1.2rem 0 .4rem}
nav.toc{position:sticky;top:0;background:var(--bg);border-bottom:1px solid var(--line);padding:.35rem 0;z-index:2}
nav.toc a{margin-right:.9rem;color:var(--accent)}
.tw{overflow:auto;max-height:34rem;margin:.4rem 0;border:1px solid var(--line)}
.tw:focus{outline:3px solid var(--accent)}
table.grid{border-collapse:collapse;font-variant-numeric:tabular-nums;width:max-content;min-width:100%}
table.grid caption{text-align:left;font-weight:600;padding:.3rem}
table.grid th,table.grid td{border-bottom:1px solid var(--line);padding:.2rem .5rem;text-align:left;white-space:nowrap}
table.grid thead th{background:var(--head);position:sticky;top:0}
table.grid .n{text-align:right}
table.grid td:focus,table.grid th:focus{outline:3px solid var(--accent);outline-offset:-3px}
button.sort{font:inherit;font-weight:600;background:none;border:0;padding:0;cursor:pointer;color:inherit}
button.sort::after{content:" \\2195";color:var(--muted)}
th[aria-sort=ascending] button.sort::after{content:" \\2191"}
th[aria-sort=descending] button.sort::after{content:" \\2193"}
.note,.sig{color:var(--muted);margin:.2rem 0}.sig code{font-size:12px;word-break:break-all}
figure{margin:.6rem 0}figcaption{color:var(--muted);max-width:60rem}
svg text{font-family:inherit}
.picker{background:var(--head);padding:.5rem .8rem;border:1px solid var(--line);display:inline-block}
.picker label{margin-right:1rem}
.missing{color:#8a3b00}
pre.cmd{background:#f6f6f6;border:1px solid var(--line);padding:.6rem;overflow:auto;white-space:pre-wrap}
.tok{display:inline-block;margin:0 .15rem .25rem 0;padding:0 .15rem;border:1px solid transparent}
.tok.d{border-color:#444;background:#fff3c4}
.tok small{display:block;font-size:11px;color:var(--muted)}
.sigstar{font-weight:700}
.row{display:flex;gap:1rem;flex-wrap:wrap}.row .tw{flex:1 1 20rem}
ol.items li{margin-bottom:.6rem}dl{margin:.2rem 0}dt{font-weight:600}dd{margin:0 0 .2rem 1.2rem}
@media print{
 nav.toc,.picker,button.sort::after{display:none}
 .tw{max-height:none;overflow:visible;border:0}
 .pairview[hidden]{display:block!important}
 section{break-inside:avoid-page}h2{break-before:auto}
 body{max-width:none;font-size:11px}
 a{color:inherit;text-decoration:none}
}
"""

JS = r"""
(function(){
"use strict";
function key(cell){var v=cell.getAttribute("data-v");return v!==null?v:cell.textContent.trim();}
function sortBy(th){
 var table=th.closest("table"),tb=table.tBodies[0],col=Array.prototype.indexOf.call(th.parentNode.children,th);
 var num=th.classList.contains("n"),dir=th.getAttribute("aria-sort")==="ascending"?"descending":"ascending";
 Array.prototype.forEach.call(th.parentNode.children,function(o){o.setAttribute("aria-sort","none");});
 th.setAttribute("aria-sort",dir);
 var rows=Array.prototype.slice.call(tb.rows);
 rows.sort(function(a,b){
  var x=key(a.cells[col]),y=key(b.cells[col]),r;
  if(num){x=parseFloat(x);y=parseFloat(y);if(isNaN(x))x=Infinity;if(isNaN(y))y=Infinity;r=x-y;}
  else{r=x<y?-1:x>y?1:0;}
  return dir==="ascending"?r:-r;});
 rows.forEach(function(r){tb.appendChild(r);});
}
document.addEventListener("click",function(e){
 var b=e.target.closest("button.sort");if(b)sortBy(b.closest("th"));});
document.addEventListener("keydown",function(e){
 var cell=e.target.closest&&e.target.closest("td,th");
 if(!cell||!cell.closest("table.grid"))return;
 var row=cell.parentNode,table=cell.closest("table"),rows=table.rows,ri=Array.prototype.indexOf.call(rows,row),
  ci=Array.prototype.indexOf.call(row.cells,cell),next=null;
 if(e.key==="ArrowRight")next=row.cells[ci+1];
 else if(e.key==="ArrowLeft")next=row.cells[ci-1];
 else if(e.key==="ArrowDown"&&rows[ri+1])next=rows[ri+1].cells[Math.min(ci,rows[ri+1].cells.length-1)];
 else if(e.key==="ArrowUp"&&rows[ri-1])next=rows[ri-1].cells[Math.min(ci,rows[ri-1].cells.length-1)];
 else if(e.key==="Home")next=row.cells[0];else if(e.key==="End")next=row.cells[row.cells.length-1];
 if(next){e.preventDefault();cell.setAttribute("tabindex","-1");next.setAttribute("tabindex","0");
  var btn=next.querySelector("button");(btn||next).focus();}
});
function initGrids(){
 document.querySelectorAll("table.grid").forEach(function(t){
  t.querySelectorAll("td,th").forEach(function(c){if(!c.querySelector("button"))c.setAttribute("tabindex","-1");});
  var first=t.querySelector("tbody td,tbody th");if(first)first.setAttribute("tabindex","0");});
}
function showPair(scope){
 var a=scope.querySelector("select.pa").value,b=scope.querySelector("select.pb").value,found=false;
 scope.querySelectorAll(".pairview").forEach(function(v){
  var on=(v.getAttribute("data-a")===a&&v.getAttribute("data-b")===b);v.hidden=!on;if(on)found=true;});
 var m=scope.querySelector(".missing");
 if(m){m.hidden=found;var c=m.querySelector("code");if(c)c.textContent="--pair "+a+","+b;}
}
function initPickers(){
 document.querySelectorAll(".pairs").forEach(function(scope){
  scope.querySelectorAll("select.pa,select.pb").forEach(function(s){
   s.addEventListener("change",function(){showPair(scope);});});
  showPair(scope);});
}
initGrids();initPickers();
})();
"""


def document(body: str, title: str = "sigfast") -> str:
    """A whole HTML page around ``body``: inline styles and script, nothing fetched."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        "script-src 'unsafe-inline'; img-src data:\">"
        f"<title>{esc(title)}</title><style>{CSS}</style></head>\n<body>\n{body}\n"
        f"<script>{JS}</script>\n</body></html>\n"
    )


def page(body: str) -> str:
    """:func:`document` titled by the body's first ``<h1>`` (or its first table's caption)."""
    import re

    m = re.search(r"<h1[^>]*>(.*?)</h1>", body, re.S) or re.search(r"<caption>(.*?)</caption>", body, re.S)
    title = html.unescape(_plain(m.group(1))) if m else "sigfast"
    return document(body, title)
