[4, 17, 9, 2] 0 [: ( int int -- int ) max ;] list-fold int-to-string say
