3 begin dup int-to-string say " " say 1 - dup 0 = until drop
