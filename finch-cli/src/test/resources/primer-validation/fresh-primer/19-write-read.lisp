(file-write (path "out.txt") (string-to-bytes "saved"))
(match-result (bytes-to-string (file-read (path "out.txt")))
  (ok text (say text))
  (err e (say e)))
