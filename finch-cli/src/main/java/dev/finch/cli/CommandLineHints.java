package dev.finch.cli;

import java.util.List;

/**
 * What to add on the command line when a run stopped for want of a grant it could be given up front: a suspension
 * waiting for one gets a {@code = help:} line naming the {@code --grant} flags, in the human output only. (A missing
 * root is named by its diagnostic itself, E-HOST-013 and E-HOST-002, in every context.)
 */
final class CommandLineHints {
    private CommandLineHints() { }

    /** The help line for a run waiting for grants of {@code required}: the --grant flags that would let it go on. */
    static String forMissingGrants(List<String> required) {
        StringBuilder b = new StringBuilder("to allow it, run again with");
        for (String cap : required) b.append(" --grant '").append(cap).append('\'');
        return b.append(" (or a grant that contains it, such as a wider path selector)").toString();
    }
}
