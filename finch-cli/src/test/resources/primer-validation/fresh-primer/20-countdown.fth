3 begin dup int-to-string " " string-append say 1 - dup 0 = until drop
