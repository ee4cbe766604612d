"""What the command line and the viewer share: the options of the queries (one parser per
query, built once here, so that ``hexwx los ... --fog 1`` and ``/api/los?fog=1`` accept exactly
the same things) and the JSON documents of their answers.  No rule or query logic lives here:
each answer is one call of the public library (``hexwx.los``, :class:`hexwx.Scenario` ...)."""
