(define-type shape variant{rect(record{h:int,w:int})|square(record{side:int})})
(define (area [s : shape]) : int
  (match s
    ((rect r) (match r (record ((w rw) (h rh)) (* rw rh))))
    ((square q) (match q (record ((side d)) (* d d))))))
(define shapes (list (variant shape :rect { :w 3 :h 4 })
                     (variant shape :square { :side 2 })
                     (variant shape :rect { :w 2 :h 4 })))
(say (int-to-string (list-fold shapes 0 (lambda ([acc : int] [s : shape]) (+ acc (area s))))))
