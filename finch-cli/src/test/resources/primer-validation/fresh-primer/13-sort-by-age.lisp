(define people (list { :name "Ada" :age 36 } { :name "Grace" :age 45 } { :name "Linus" :age 27 }))
(define (by-age [a : record{age:int,name:string}] [b : record{age:int,name:string}]) : int
  (match a (record ((age x)) (match b (record ((age y)) (- x y))))))
(define sorted (list-sort-by people by-age))
(say (string-join (list-map sorted (lambda ([p : record{age:int,name:string}]) (match p (record ((name n)) n)))) ","))
