"""Write realistic saved article pages: an article buried in what real sites put
around it (navigation, cookie banner, inline scripts and JSON-LD, share bars,
related stories, comments, newsletter boxes, footers).

Deterministic: ``python tests/web/pages/generate.py`` rewrites the same files.
Each article holds a marker sentence (``MARKER <name>``) the tests look for;
boilerplate carries phrases that must not survive extraction.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

HERE = Path(__file__).parent

BOILERPLATE = [
    "Subscribe to our newsletter for weekly updates",
    "We use cookies to improve your experience",
    "Share this article on social media",
    "All rights reserved by the publisher",
]

TOPICS = {
    "rivers": (
        "How a river remembers its old course",
        [
            "Geologists who walk a floodplain after a large flood often find that the water has chosen a path the river abandoned decades ago.",
            "The old channel is rarely erased; it survives as a shallow depression, a line of willows, or a band of coarse gravel under the topsoil.",
            "When the main channel is blocked by debris, the river spills into the lowest ground it can find, and that ground is usually its own history.",
            "Engineers who straighten rivers for navigation tend to underestimate how strongly the landscape keeps these memories.",
            "Surveys made with airborne laser scanning show the abandoned meanders in remarkable detail, even beneath dense forest.",
            "Farmers have long known which fields flood first, and their knowledge matches the scans with surprising accuracy.",
            "Restoring a river often means giving part of the floodplain back, so that the water can spread out instead of rising.",
            "The cost of doing so is measured in land, while the cost of not doing so is measured in repaired levees and flooded towns.",
        ],
    ),
    "bread": (
        "The slow chemistry of sourdough",
        [
            "A sourdough starter is a community of wild yeasts and lactic acid bacteria that has settled into a stable balance.",
            "The bacteria produce acids that lower the pH of the dough, which keeps many unwanted microbes from growing.",
            "Yeast tolerates that acidity well and keeps producing the carbon dioxide that lifts the loaf.",
            "Temperature decides much of the flavour: a cool, long fermentation favours acetic acid and a sharper taste.",
            "A warm fermentation favours lactic acid, which gives a milder, creamier sourness that many bakers prefer.",
            "Whole grain flours feed the culture faster because they carry more minerals and enzymes than white flour.",
            "Bakers who keep a starter for years often say it changes with the seasons, and measurements suggest they are right.",
            "The crust colours through the Maillard reaction, which needs the sugars that the long fermentation has released.",
        ],
    ),
    "bridges": (
        "Why old stone bridges are still standing",
        [
            "A masonry arch carries its load in compression, which is exactly the kind of stress that stone handles best.",
            "As long as the line of thrust stays within the thickness of the arch, the structure has no reason to fail.",
            "Many medieval bridges were built with generous proportions, so that line has plenty of room to move.",
            "Modern traffic is far heavier than carts and horses, yet the extra weight often makes an arch more stable, not less.",
            "The real enemies of a stone bridge are scour at the foundations and water working its way into the fill.",
            "Inspectors now use ground penetrating radar to look for voids behind the spandrel walls without opening them.",
            "Repairs that add rigid concrete can do harm, because the old structure relied on being able to settle slightly.",
            "Lime mortar is softer than the stone it binds, so cracks form in the joints, where they are cheap to repoint.",
        ],
    ),
    "owls": (
        "Listening in the dark: how owls find their prey",
        [
            "Barn owls can catch a mouse in complete darkness, guided only by the faint rustle it makes in the leaves.",
            "Their ears sit at different heights on the head, so a sound from below reaches one ear slightly before the other.",
            "The brain compares those tiny differences in timing and loudness to build a map of where the sound came from.",
            "The facial disc of stiff feathers works like a dish antenna, collecting sound and guiding it toward the ears.",
            "Soft fringes on the flight feathers break up turbulence, which makes the owl nearly silent as it approaches.",
            "Silence matters twice: the prey cannot hear the owl, and the owl's own wing noise does not mask the prey.",
            "Young owls improve with practice, and experiments show their sound maps are tuned during the first months of life.",
            "Researchers have borrowed the serrated feather edge to design quieter fan blades and wind turbines.",
        ],
    ),
    "compilers": (
        "What a compiler does with your loop",
        [
            "A modern optimizing compiler rarely translates a loop into machine code the way it was written.",
            "It first converts the program into an intermediate form where every value is assigned exactly once.",
            "In that form it becomes easy to see which computations do not change between iterations and can be hoisted out.",
            "Loop unrolling trades a larger program for fewer branch instructions and more room for instruction scheduling.",
            "Vectorization goes further and processes several array elements with a single instruction when the data allows it.",
            "Aliasing is the usual obstacle, because the compiler must prove that two pointers never refer to the same memory.",
            "Profile guided optimization lets the compiler see which branches are actually taken when the program runs.",
            "Reading the generated assembly is still the most reliable way to learn what the compiler really decided.",
        ],
    ),
    "tides": (
        "The long reach of the tides",
        [
            "The Moon pulls harder on the side of the Earth that faces it than on the far side, and that difference raises the tides.",
            "Two bulges of water form, one toward the Moon and one away from it, and the Earth rotates beneath them.",
            "The shape of coastlines and the depth of the sea turn that simple pattern into something far more varied.",
            "In some bays the water resonates with the tidal period, and the range grows to more than ten metres.",
            "Elsewhere the tide almost vanishes, at points the oceanographers call amphidromic, where the range is close to zero.",
            "Tidal friction slowly lengthens the day and pushes the Moon a few centimetres farther away each year.",
            "Fossil corals record more days per year in the distant past, which agrees with that slow braking.",
            "Tide tables today are computed from dozens of harmonic constituents fitted to long records at each port.",
        ],
    ),
}

LAYOUTS = ["news", "blog", "docs", "magazine"]


def _nav(rng: random.Random) -> str:
    sections = [
        "World",
        "Politics",
        "Business",
        "Technology",
        "Science",
        "Health",
        "Sport",
        "Culture",
        "Travel",
    ]
    links = "".join(f'<li><a href="/{s.lower()}">{s}</a></li>' for s in sections)
    sub = "".join(f'<li><a href="/topic/{rng.randrange(10**6)}">Topic {i}</a></li>' for i in range(30))
    return (
        f'<header class="site-header"><div class="logo"><a href="/">The Daily Example</a></div>'
        f'<nav class="main-nav"><ul>{links}</ul></nav><nav class="sub-nav"><ul>{sub}</ul></nav>'
        f'<form class="search"><input name="q" placeholder="Search"></form></header>'
    )


def _scripts(rng: random.Random, title: str) -> str:
    blob = "".join(f"var _{i}=function(a,b){{return a*{i}+b;}};" for i in range(rng.randrange(200, 600)))
    ld = json.dumps({"@context": "https://schema.org", "@type": "NewsArticle", "headline": title})
    return (
        f"<script>{blob}</script>"
        f'<script type="application/ld+json">{ld}</script>'
        f"<style>{'.card{margin:2px;padding:2px}' * 400}</style>"
    )


def _cookie_banner() -> str:
    return (
        f'<div class="cookie-banner" role="dialog"><p>{BOILERPLATE[1]}. By continuing you accept '
        'our <a href="/privacy">privacy policy</a>.</p><button>Accept all</button><button>Settings</button></div>'
    )


def _related(rng: random.Random) -> str:
    items = "".join(
        f'<li><a href="/story/{rng.randrange(10**6)}"><img src="/i/{i}.jpg" alt="">'
        f"<span>Related story number {i} you may have missed</span></a></li>"
        for i in range(12)
    )
    return f'<aside class="related"><h3>More stories</h3><ul>{items}</ul></aside>'


def _comments(rng: random.Random) -> str:
    people = ["alex", "sam", "kim", "noor", "li", "jo"]
    items = "".join(
        f'<div class="comment"><span class="user">{rng.choice(people)}{i}</span>'
        f"<p>Great read, thanks! Comment {i}.</p><a href='/reply/{i}'>Reply</a></div>"
        for i in range(rng.randrange(5, 15))
    )
    return f'<section id="comments" class="comments"><h3>Comments</h3>{items}</section>'


def _footer() -> str:
    cols = "".join(
        f'<div class="col"><h4>Section {c}</h4><ul>'
        + "".join(f'<li><a href="/f/{c}/{i}">Footer link {c}.{i}</a></li>' for i in range(10))
        + "</ul></div>"
        for c in range(5)
    )
    return (
        f'<footer class="site-footer">{cols}<div class="newsletter"><h4>{BOILERPLATE[0]}</h4>'
        f'<form><input type="email"><button>Sign up</button></form></div>'
        f"<p>&copy; 2024 The Daily Example. {BOILERPLATE[3]}.</p></footer>"
    )


def _article(rng: random.Random, name: str, title: str, sentences: list[str], layout: str) -> str:
    paragraphs = []
    for n in range(rng.randrange(9, 14)):
        chosen = rng.sample(sentences, rng.randrange(3, 6))
        if n == 3:
            chosen.append(f"MARKER {name}: this sentence belongs to the article body.")
        paragraphs.append(" ".join(chosen))
    body = []
    for n, text in enumerate(paragraphs):
        if n and n % 4 == 0:
            body.append(f"<h2>Part {n // 4 + 1} of the story</h2>")
        body.append(f"<p>{text}</p>")
        if n == 5:
            body.append(
                f'<div class="share-bar"><span>{BOILERPLATE[2]}</span>'
                '<a href="#">Facebook</a><a href="#">X</a><a href="#">Email</a></div>'
            )
            body.append(
                '<div class="ad" data-slot="mid"><iframe src="/ads/slot1"></iframe><span>Advertisement</span></div>'
            )
        if n == 7 and layout in ("docs", "magazine"):
            rows = "".join(f"<tr><td>Item {i}</td><td>{rng.randrange(100)}</td></tr>" for i in range(4))
            body.append(
                f"<table><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody>{rows}</tbody></table>"
            )
        if n == 8 and layout == "blog":
            body.append(f"<blockquote><p>{rng.choice(sentences)}</p></blockquote>")
            body.append(
                "<ul>" + "".join(f"<li>{s.split(',')[0]}</li>" for s in rng.sample(sentences, 3)) + "</ul>"
            )
    byline = (
        f'<div class="byline">By <a href="/authors/{name}">A. Writer</a> · '
        f'<time datetime="2024-0{rng.randrange(1, 9)}-1{rng.randrange(0, 9)}">Published</time></div>'
    )
    return (
        f'<article class="{layout}-article"><h1>{title}</h1>{byline}'
        f'<div class="article-body">{"".join(body)}</div></article>'
    )


def page(name: str, index: int) -> str:
    title, sentences = TOPICS[name.split("-")[0]]
    rng = random.Random(index * 7919 + len(name))
    layout = LAYOUTS[index % len(LAYOUTS)]
    wrap_depth = rng.randrange(3, 8)
    inner = _article(rng, name, title, sentences, layout)
    for d in range(wrap_depth):
        inner = f'<div class="layout-{d} container">{inner}</div>'
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>{title} | The Daily Example</title>'
        f'<meta name="description" content="{sentences[0]}">'
        f'<link rel="stylesheet" href="/s.css">{_scripts(rng, title)}</head><body>'
        f"{_cookie_banner()}{_nav(rng)}<main>{inner}{_related(rng)}</main>"
        f"{_comments(rng)}{_footer()}<script>window.dataLayer=[];</script></body></html>\n"
    )


def main() -> None:
    topics = list(TOPICS)
    for index in range(2 * len(topics)):
        name = topics[index % len(topics)] + ("-b" if index >= len(topics) else "")
        (HERE / f"{name}.html").write_text(page(name, index), encoding="utf-8")


if __name__ == "__main__":
    main()
