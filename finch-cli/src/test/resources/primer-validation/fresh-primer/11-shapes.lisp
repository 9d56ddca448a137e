(define-type shape variant{rect(record{h:int,w:int})|square(int)})
(define (area [s : shape]) : int
  (match s
    ((rect r) (match r (record ((h hh) (w ww)) (* hh ww))))
    ((square a) (* a a))))
(define shapes (list (variant shape :rect { :w 4 :h 5 }) (variant shape :square 2)))
(say (int-to-string (list-fold shapes 0 (lambda ([acc : int] [s : shape]) (+ acc (area s))))))
