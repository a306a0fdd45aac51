"""The page's machinery: events and their order, forms, links, language, the shared views' cache."""
