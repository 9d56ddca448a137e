(define words (string-split "the cat saw the dog" " "))
(define counts
  (list-fold words (map-remove (map "x" 0) "x")
    (lambda ([m : map<string,int>] [w : string])
      (map-set m w (+ 1 (match-option (map-get m w) (some c c) (none 0)))))))
(say (string-append "the=" (int-to-string (match-option (map-get counts "the") (some c c) (none 0)))))
