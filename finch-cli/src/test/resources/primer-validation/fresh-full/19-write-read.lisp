(file-write (path "note.txt") (string-to-bytes "saved"))
(say (match-result (bytes-to-string (file-read (path "note.txt"))) (ok s s) (err e e)))
