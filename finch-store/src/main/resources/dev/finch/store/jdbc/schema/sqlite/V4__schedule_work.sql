-- Finch's store, version 4: what a schedule runs, beside its program text. `language` is the program's language
-- (lisp, forth or norman), NULL for a schedule kept by version 3, whose language the contract's rule infers from its
-- text (a '(' first is Lisp, else Co-Forth); `word` is the name of the defined word a schedule made by name calls
-- (its program then holds the word's definitions as canonical Co-Forth), NULL for a program given as text.
ALTER TABLE finch_schedules ADD COLUMN language TEXT;
ALTER TABLE finch_schedules ADD COLUMN word TEXT;
