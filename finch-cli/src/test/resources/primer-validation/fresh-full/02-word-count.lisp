(define (count-words [s : string]) : map<string,int>
  (list-fold (string-split s " ") (empty-map string int)
    (lambda ([m : map<string,int>] [w : string])
      (map-set m w (+ 1 (match-option (map-get m w) (some c c) (none 0)))))))
(define counts (count-words "the cat saw the dog"))
(say (string-append "the=" (int-to-string (match-option (map-get counts "the") (some c c) (none 0)))))
