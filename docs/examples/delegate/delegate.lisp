; Delegate one task to two children, each given a different grant of this run (docs/agents.md).
(define grants (capability-list))
(define (grants-under [dir : string])
  (list-map (list-filter grants (lambda (g) (match g (record ((capability c)) (string-contains c dir)))))
            (lambda (g) (match g (record ((grant r)) r)))))
(define (child [role : string] [caps : list<resource<capability-grant>>])
  (agent-spawn-with { :task "Read public/notes.txt and tell me what it says." :role role :background "" :provider "" :model ""
                      :context-refs (empty-list record{id:string,kind:string,sha256:string})
                      :capabilities caps :max-turns 4 :timeout-ms 30000 :max-output-bytes 4096 }))
(define reader (child "reader" (grants-under "/public/")))
(define auditor (child "auditor" (grants-under "/private/")))
(match (agent-await reader)
  (record ((final-message m) (status s))
    (say (string-append "reader (" s "): " m "\n"))))
(match (agent-await auditor)
  (record ((final-message m) (status s) (diagnostics ds))
    (say (string-append "auditor (" s "): " m "\n"
                        "auditor diagnostics: " (show (list-map ds (lambda (d) (match d (record ((code c)) c))))) "\n"))))
