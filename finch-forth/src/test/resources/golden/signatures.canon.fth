: load ( path -- bytes ! {fs.read(${workspace}/**)} ) drop "x" string-to-bytes ;
: gen ( int -- yields<int,unit> ) yield ;
: apply ( (int -> int) int -- int ) swap execute ;
: noop ( -- ) ;
: inferred 1 2 + ;
