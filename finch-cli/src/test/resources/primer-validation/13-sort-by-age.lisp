(define people (list { :name "Ada" :age 36 } { :name "Linus" :age 27 } { :name "Grace" :age 45 }))
(define (age [p : record{age:int,name:string}]) : int (unwrap (record-get p "age")))
(define (by-age [a : record{age:int,name:string}] [b : record{age:int,name:string}]) : int (- (age a) (age b)))
(say (string-join (list-map (list-sort-by people by-age) (lambda ([p : record{age:int,name:string}]) (unwrap (record-get p "name")))) ","))
