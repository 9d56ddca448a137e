// Co-Forth (decisions D7, contract "Co-Forth"): a grammar without actions. Lowering is CoForthLowerer (a visitor).
//
// Tokens are whitespace-separated words, except that the bracket delimiters [ ] { } , and string quotes split
// words, so [1, 2, 3] and [3] read as lists. Comments go to the HIDDEN channel: the lowerer reads the one
// "( … )" right after ": name" or "[:" as the signature (D7), everywhere else it is a comment.
//
// The tokens that nest — comments "( … ( … ) … )", pasted JSON objects "{"k": {…}}" and the <…> groups of
// parameterized words — have no lexer rule here: CoForthTokens scans them in one linear pass (ANTLR's lexer simulates
// a nested fragment with one prediction context per level, which made a nested comment quadratic and a deeply nested
// signature a StackOverflowError). Their types are declared below; the rules they replace are in CoForthTokens' Javadoc.
grammar CoForth;

tokens { PAREN, UNCLOSED_PAREN, JSON_OBJECT, CONSTANT_TYPED, TYPE_DEF, PARAM_WORD }

program     : topItem* EOF ;

topItem     : definition
            | item
            ;

// ": name ( sig )? body ;" — the signature is the hidden PAREN token right after the name.
definition  : COLON name=WORD items SEMI ;

items       : item* ;

item        : INT                                         # intLit
            | FLOAT                                       # floatLit
            | STRING                                      # stringLit
            | SSTRING                                     # stringLit
            | TRUE                                        # trueLit
            | FALSE                                       # falseLit
            | UNIT                                        # unitLit
            | SYMBOL                                      # symbolLit
            | JSON_OBJECT                                 # jsonLit
            | IF then=items (ELSE otherwise=items)? THEN  # ifThen
            | IF_SOME some=items (ELSE none=items)? THEN  # ifSome
            | IF_OK ok=items (ELSE err=items)? THEN       # ifOk
            | BEGIN test=items WHILE body=items REPEAT    # beginWhile
            | BEGIN body=items UNTIL                      # beginUntil
            | CASE caseArm* (OTHERWISE otherwise=items)? ENDCASE # caseOf
            | QUESTION                                    # propagate
            | TICK name=WORD                              # quote
            | (CONSTANT | CONSTANT_TYPED) name=WORD       # constant
            | TYPE_DEF name=WORD                          # typeDef
            | LOCAL_STORE name=WORD                       # localStore
            | CLOSURE_OPEN items CLOSURE_CLOSE            # closure
            | LBRACKET elements RBRACKET                  # list
            | LIST_OPEN elements LIST_CLOSE               # list
            | MAP_OPEN elements MAP_CLOSE                 # map
            | LBRACE (field | COMMA)* RBRACE              # record
            | PARAM_WORD                                  # paramWord
            | WORD                                        # word
            ;

// Commas are optional separators between elements (contract: [1, 2, 3] equals [ 1 2 3 ]).
elements    : (item | COMMA)* ;

field       : FIELD items ;

caseArm     : INT OF items ENDOF ;

// ---------------------------------------------------------------------------------------------------- lexer
// ANTLR picks the longest match and, on a tie, the rule defined first: keywords precede WORD.

LINE_COMMENT        : '\\' ( [ \t\f] ~[\r\n]* )? -> channel(HIDDEN) ;

STRING              : '"' ( ESCAPE | ~["\\\r\n] )* '"' ;
SSTRING             : 's"' ( ESCAPE | ~["\\\r\n] )* '"' ;
// Strings do not span lines; an unclosed one runs to the end of its line and is reported, not skipped.
UNTERMINATED_STRING : 's'? '"' ( ESCAPE | ~["\\\r\n] )* '\\'? ;

LOCAL_STORE         : ':>' ;
COLON               : ':' ;
SEMI                : ';' ;
CLOSURE_OPEN        : '[:' ;
CLOSURE_CLOSE       : ';]' ;
TICK                : '[\']' ;
LIST_OPEN           : 'list{' ;
LIST_CLOSE          : '}list' ;
MAP_OPEN            : 'map{' ;
MAP_CLOSE           : '}map' ;
LBRACKET            : '[' ;
RBRACKET            : ']' ;
LBRACE              : '{' ;
RBRACE              : '}' ;
COMMA               : ',' ;

IF                  : 'if' ;
IF_SOME             : 'if-some' ;
IF_OK               : 'if-ok' ;
ELSE                : 'else' ;
THEN                : 'then' ;
BEGIN               : 'begin' ;
WHILE               : 'while' ;
REPEAT              : 'repeat' ;
UNTIL               : 'until' ;
CASE                : 'case' ;
OF                  : 'of' ;
ENDOF               : 'endof' ;
OTHERWISE           : 'otherwise' ;
ENDCASE             : 'endcase' ;
QUESTION            : '?' ;
CONSTANT            : 'constant' ;
TRUE                : 'true' ;
FALSE               : 'false' ;
UNIT                : 'unit' ;

INT                 : '-'? DIGITS
                    | '-'? '0' [xX] [0-9a-fA-F]+
                    ;
FLOAT               : '-'? DIGITS '.' DIGITS EXPONENT?
                    | '-'? DIGITS EXPONENT
                    | '+inf.0' | '-inf.0' | '+nan.0'
                    ;

// A record field label "name:" (identifier-like names only, contract "Typed records").
FIELD               : [a-zA-Z_] [a-zA-Z0-9_-]* ':' ;
SYMBOL              : '\'' WORD_CHAR+ ;
WORD                : WORD_CHAR+ ;

WS                  : [ \t\f\r\n]+ -> skip ;

fragment WORD_CHAR   : ~[ \t\f\r\n[\]{},"] ;
fragment DIGITS      : [0-9]+ ;
fragment EXPONENT    : [eE] [+-]? [0-9]+ ;
fragment ESCAPE      : '\\' ~[\r\n] ;
