; Hello in Lisp: the same program; both languages lower to one typed IR.
(define (greet [who : string]) (say (string-append "hello, " (string-append who "!\n"))))
(greet "world")
(say (string-append "the answer is " (string-append (int-to-string (+ 40 2)) "\n")))
