"""Text from outside made safe, for every layer: secrets redacted (``redact``, the shapes a secret
takes in ``secret_shapes`` and their search in ``shape_search``) and markdown escaped (``markdown``),
terminal controls stripped first (:func:`canary.textio.printable`). A leaf: it imports only the
shared basics."""
