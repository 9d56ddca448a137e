{ name: "Ada" age: 36 } :> p
p "name" record-get unwrap " is " string-append
p "age" record-get unwrap int-to-string string-append say
