"""TREC qrels and run text files: the format (:mod:`.format`), its two splitters (:mod:`.small`,
:mod:`.arrow`) and the reader that picks one (:mod:`.reader`)."""
