package dev.finch.frontend.types;

import java.util.ArrayList;
import java.util.List;

/** A small type language for the core's tests: variables, constructors by name, and functions. */
abstract class T extends Term<T> {
    T() { }

    T(VarSupply s, int level) { super(s, level); }

    static final class Var extends T {
        Var(VarSupply s, int level) { super(s, level); }

        @Override protected List<T> parts() { return List.of(); }

        @Override protected boolean sameShape(T other) { return false; }

        @Override protected T withParts(List<T> parts) { return this; }

        @Override public String toString() { return binding() != null ? binding().toString() : "?" + id(); }
    }

    static final class Con extends T {
        final String name;
        final List<T> args;

        Con(String name, List<T> args) {
            this.name = name;
            this.args = List.copyOf(args);
        }

        @Override protected List<T> parts() { return args; }

        @Override protected boolean sameShape(T other) { return other instanceof Con c && c.name.equals(name) && c.args.size() == args.size(); }

        @Override protected T withParts(List<T> parts) { return new Con(name, parts); }

        @Override public String toString() { return args.isEmpty() ? name : "(" + name + " " + String.join(" ", args.stream().map(Object::toString).toList()) + ")"; }
    }

    static final class Fn extends T {
        final List<T> params;
        final T ret;

        Fn(List<T> params, T ret) {
            this.params = List.copyOf(params);
            this.ret = ret;
        }

        @Override protected List<T> parts() {
            List<T> all = new ArrayList<>(params);
            all.add(ret);
            return all;
        }

        @Override protected boolean sameShape(T other) { return other instanceof Fn f && f.params.size() == params.size(); }

        @Override protected T withParts(List<T> parts) { return new Fn(parts.subList(0, parts.size() - 1), parts.get(parts.size() - 1)); }

        @Override public String toString() { return "(" + String.join(" ", params.stream().map(Object::toString).toList()) + " -> " + ret + ")"; }
    }

    static Con con(String name, T... args) { return new Con(name, List.of(args)); }

    static Fn fn(T ret, T... params) { return new Fn(List.of(params), ret); }

    static final T INT = con("Int");
    static final T TEXT = con("Text");

    /** {@code t} fully resolved, with variables named by number: two types are equal exactly when these are. */
    static String show(T t) {
        t = t.prune();
        if (t.isVariable()) return "?" + t.id();
        if (t instanceof Con c) {
            StringBuilder b = new StringBuilder("(").append(c.name);
            for (T a : c.args) b.append(' ').append(show(a));
            return b.append(')').toString();
        }
        Fn f = (Fn) t;
        StringBuilder b = new StringBuilder("(");
        for (T p : f.params) b.append(show(p)).append(' ');
        return b.append("-> ").append(show(f.ret)).append(')').toString();
    }
}
