"""Sphinx configuration of informed's documentation site (`make docs`).

The pages are the Markdown files of docs/ as they are (MyST), the README as the home page,
an API reference generated from the numpydoc docstrings (autodoc with napoleon) and a
gallery drawn at build time from the list in docs/gallery.py. The build needs no network:
no intersphinx, no math (MathJax would load from a CDN), furo's assets ship in its wheel.
docs/development.md says why Sphinx and these extensions were chosen.
"""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE))

project = "informed"
author = "the informed developers"
copyright = "the informed developers, MIT licence"
release = version = metadata.version("informed")

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.autosummary",
    "sphinx.ext.viewcode",
    "informed_docs",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "_static", "Thumbs.db", ".DS_Store"]
templates_path: list[str] = []

# Markdown as GitHub shows it: headings get anchors for the pages' #links
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]
suppress_warnings: list[str] = []

# numpydoc-style docstrings (Parameters, Returns, Notes, References, Examples)
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
# parameters as a list of text: a type such as "array-like of shape (n,)" is not cross-referenced
napoleon_use_param = False
# an Attributes section as fields: the properties autodoc documents are not described twice
napoleon_use_ivar = True
napoleon_preprocess_types = False
autodoc_member_order = "bysource"
autodoc_typehints = "none"
# a class's methods from its mixins are its methods (Ranking.at_threshold, Tally.stats_table):
# members inherited from informed's own classes are documented on the class; those of
# Python's built-in bases (tuple's count, an exception's args) are not
autodoc_default_options = {
    "members": True,
    "inherited-members": "object,BaseException,tuple,dict,list,str,int,float,Enum",
}
autosummary_generate = False
# `name` in a docstring is code (as a reference it would be ambiguous: `n` is many things)
default_role = "literal"
# the tally module's doctest output and the docstrings' ``text`` blocks are not Python
highlight_language = "none"

html_theme = "furo"
html_title = "informed"
html_static_path = ["_static"]
html_css_files = ["informed.css"]  # a wider text column; the gallery's figures
html_show_sourcelink = False
html_theme_options = {
    "navigation_with_keys": True,
    "source_repository": "",
}
