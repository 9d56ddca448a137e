/*
 * S-expressions for the Finch Lisp frontend (decisions D8). No actions: the reader (SyntaxReader) walks the
 * generated visitor and builds the datum tree; forms are recognised later, by the analyzer.
 */
grammar Lisp;

program : datum* EOF ;

datum
    : '(' datum* ')'   # list
    | '[' datum* ']'   # bracket
    | '{' datum* '}'   # braces
    | '\'' datum       # quote
    | STRING           # string
    | FLOAT            # float
    | INT              # int
    | KEYWORD          # keyword
    | ':'              # colon
    | SYMBOL           # symbol
    ;

STRING  : '"' ( '\\' . | ~["\\] )* '"' ;
FLOAT   : '-'? DIGIT+ '.' DIGIT+ EXPONENT? | '-'? DIGIT+ EXPONENT ;
INT     : '-'? DIGIT+ ;
KEYWORD : ':' SYM_CHAR+ ;
// A symbol may embed a braced part glued to it, so that type spellings such as record{a:int} or
// variant{none|some(int)} (and option<record{a:int}>) are one token.
SYMBOL  : SYM_START SYM_CHAR* ( BRACED SYM_CHAR* )* ;

COMMENT : ';' ~[\r\n]* -> skip ;
WS      : [ \t\r\n\f]+ -> skip ;
// Anything else is one bad token, reported as a parse diagnostic rather than a lexer console message.
BAD     : . ;

fragment DIGIT    : [0-9] ;
fragment EXPONENT : [eE] [+-]? DIGIT+ ;
fragment SYM_START: [a-zA-Z_!$%&*/<=>?^~+\-|#.] | '\u0080'..'\uFFFE' ;
fragment SYM_CHAR : SYM_START | [0-9:,@] ;
fragment BRACED   : '{' ( ~[{}] | BRACED )* '}' ;
