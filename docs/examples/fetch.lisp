; Fetch a JSON document and print one of its fields (docs/lisp.md, "HTTP").
;   python3 -m http.server 8000 --bind 127.0.0.1     (in a directory holding release.json: {"version": "1.2.3"})
;   finch run --grant 'net.http(http://127.0.0.1:8000/**)' docs/examples/fetch.lisp
; Without the grant the run pauses, waiting for net.http(http://127.0.0.1:8000/release.json,method=GET).
(define (field [doc : string] [name : string]) : option<string>
  (match-result (json-parse doc)
    (ok j (match-option (json-get j name) (some v (json-as-string v)) (none (none))))
    (err e (none))))

(match-result (http-get "http://127.0.0.1:8000/release.json")
  (ok r (match r (record ((body b) (headers h) (status s) (url u))
    (if (= s 200)
        (match-result (bytes-to-string b)
          (ok text (match-option (field text "version")
                     (some v (say (string-append "version " v)))
                     (none (say "no version field"))))
          (err e (say "the body is not UTF-8")))
        (say (string-append "status " (int-to-string s)))))))
  (err e (match e (record ((code c) (message m)) (say (string-append c ": " m))))))
