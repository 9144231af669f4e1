#!/bin/bash
# An annotation processor registered under META-INF/services would run inside javac during
# the compile-only step; it announces itself in the verify log.
set -e
cd /workspace
mkdir -p /tmp/proc META-INF/services
cat > /tmp/proc/Forge.java <<'J'
import java.util.Set;
import javax.annotation.processing.*;
import javax.lang.model.element.TypeElement;
@SupportedAnnotationTypes("*")
public class Forge extends AbstractProcessor {
    public boolean process(Set<? extends TypeElement> a, RoundEnvironment r) {
        System.err.println("FORGE-PROCESSOR-RAN");
        return false;
    }
}
J
javac -d /workspace /tmp/proc/Forge.java
echo Forge > META-INF/services/javax.annotation.processing.Processor
