(define-type shape variant{circle(int)|rect(record{h:int,w:int})})
(define (area [s : shape]) : int
  (match s ((circle r) (* 3 (* r r))) ((rect b) (match b (record ((h h) (w w)) (* h w))))))
(say (int-to-string (list-fold (list-map (list (variant shape :circle 2) (variant shape :rect { :w 3 :h 4 })) area) 0 (lambda ([a : int] [b : int]) (+ a b)))))
