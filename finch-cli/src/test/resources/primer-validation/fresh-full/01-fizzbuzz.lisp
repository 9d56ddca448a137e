(define (fb [n : int]) : string
  (cond ((= 0 (mod n 15)) "FizzBuzz")
        ((= 0 (mod n 3)) "Fizz")
        ((= 0 (mod n 5)) "Buzz")
        (else (int-to-string n))))
(say (string-join (list-map (list-range 1 16) (lambda ([n : int]) (fb n))) " "))
