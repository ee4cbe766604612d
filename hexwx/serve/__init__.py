"""``hexwx serve``: the local web viewer (a page of plain HTML/JS/SVG) and its JSON API.

:mod:`hexwx.serve.params` turns query strings into the CLI's parsed flags,
:mod:`hexwx.serve.session` answers the API for one loaded map/scenario/table,
:mod:`hexwx.serve.server` is the stdlib HTTP server; the page lives in ``static/``.
"""
