"""One module per tab: plain handler functions (testable without a browser) and a build(ctx)
that declares the tab's components and wires its events."""
