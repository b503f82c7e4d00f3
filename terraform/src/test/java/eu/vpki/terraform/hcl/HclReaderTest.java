package eu.vpki.terraform.hcl;

import eu.vpki.terraform.hcl.Ast.BinaryOp;
import eu.vpki.terraform.hcl.Ast.Block;
import eu.vpki.terraform.hcl.Ast.Body;
import eu.vpki.terraform.hcl.Ast.Conditional;
import eu.vpki.terraform.hcl.Ast.ForExpr;
import eu.vpki.terraform.hcl.Ast.FunctionCall;
import eu.vpki.terraform.hcl.Ast.GetAttr;
import eu.vpki.terraform.hcl.Ast.Index;
import eu.vpki.terraform.hcl.Ast.Interpolation;
import eu.vpki.terraform.hcl.Ast.Literal;
import eu.vpki.terraform.hcl.Ast.LiteralText;
import eu.vpki.terraform.hcl.Ast.ObjectCons;
import eu.vpki.terraform.hcl.Ast.Parens;
import eu.vpki.terraform.hcl.Ast.RelativeTraversal;
import eu.vpki.terraform.hcl.Ast.ScopeTraversal;
import eu.vpki.terraform.hcl.Ast.Splat;
import eu.vpki.terraform.hcl.Ast.Template;
import eu.vpki.terraform.hcl.Ast.Tuple;
import eu.vpki.terraform.hcl.Ast.UnaryOp;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What HclReader makes of rewrite-hcl's tree, and what it refuses. */
class HclReaderTest {

    private static final Path FILE = Path.of("test.tf");

    private static Body read(String text) {
        return HclReader.read(text, FILE);
    }

    private static Ast.Expr expr(String expression) {
        return read("x = " + expression + "\n").expr("x").orElseThrow();
    }

    @Test
    void bodiesWithCommentsLabelsOneLineBlocksAndLines() {
        Body body = read("""
                # comment
                // another
                /* block
                   comment */
                resource "aws_vpc" "this" { # trailing
                  cidr_block = "10.0.0.0/16" // trailing
                  tags       = { Name = "x" }
                  lifecycle { ignore_changes = [tags] }
                }
                locals {
                  a-b = 1
                }
                """);
        Block vpc = body.blocks("resource").get(0);
        assertThat(vpc.labels()).containsExactly("aws_vpc", "this");
        assertThat(vpc.pos()).isEqualTo(new Ast.Pos(FILE, 5));
        assertThat(vpc.body().attribute("cidr_block").orElseThrow().pos().line()).isEqualTo(6);
        assertThat(((Template) vpc.body().expr("cidr_block").orElseThrow()).constant()).hasValue("10.0.0.0/16");
        assertThat(vpc.body().blocks("lifecycle")).hasSize(1);
        assertThat(body.blocks("locals").get(0).body().attribute("a-b").orElseThrow().pos().line()).isEqualTo(11);
    }

    @Test
    void newlinesEndAttributes_twoOnOneLineAreRefused() {
        Body body = read("""
                a = [
                  1,
                  2,
                ]
                b = f(
                  x,
                  y
                )
                c = 1
                """);
        assertThat(((Tuple) body.expr("a").orElseThrow()).items()).hasSize(2);
        assertThat(((FunctionCall) body.expr("b").orElseThrow()).args()).hasSize(2);
        assertThat(body.attributes()).extracting(Ast.Attribute::name).containsExactly("a", "b", "c");
        // rewrite-hcl reads this as two attributes; Terraform refuses it, and so do we
        assertThatThrownBy(() -> read("a = 1 b = 2\n")).isInstanceOf(HclParseException.class)
                .hasMessageContaining("test.tf:1").hasMessageContaining("two items on one line");
        assertThatThrownBy(() -> read("r \"t\" \"n\" {\n  a = 1 b { }\n}\n")).isInstanceOf(HclParseException.class)
                .hasMessageContaining("test.tf:2");
        assertThatThrownBy(() -> read("a = 1 /* comment */ b = 2\n")).isInstanceOf(HclParseException.class);
        assertThat(read("a = 1 # comment\nb = 2\n").attributes()).hasSize(2);
    }

    @Test
    void operatorsKeepTheirOperands() {
        Conditional c = (Conditional) expr("!a || b && c == 1 + 2 ? -x : y");
        assertThat(c.condition()).isInstanceOf(BinaryOp.class);
        assertThat(c.then()).isInstanceOf(UnaryOp.class);
        assertThat(((BinaryOp) expr("a >= 1")).op()).isEqualTo("GreaterThanOrEqual");
    }

    @Test
    void traversalsSplatsAndCalls() {
        ScopeTraversal t = (ScopeTraversal) expr("module.region[\"eu-west-1\"].vpc_id");
        assertThat(t.root()).isEqualTo("module");
        assertThat(t.steps()).hasSize(3);
        assertThat(t.steps().get(1)).isInstanceOf(Index.class);
        assertThat(((GetAttr) t.steps().get(2)).name()).isEqualTo("vpc_id");
        ScopeTraversal legacy = (ScopeTraversal) expr("a.0.b");
        assertThat(legacy.steps()).hasSize(2);
        assertThat(((Literal) ((Index) legacy.steps().get(0)).key()).value()).isEqualTo(BigDecimal.ZERO);
        assertThat(legacy.steps().get(1)).isEqualTo(new GetAttr("b"));

        Splat s = (Splat) expr("aws_subnet.private[*].id");
        assertThat(((ScopeTraversal) s.source()).steps()).hasSize(1);
        assertThat(s.eachSteps()).containsExactly(new GetAttr("id"));
        assertThat(((Splat) expr("a.*.b")).eachSteps()).containsExactly(new GetAttr("b"));

        FunctionCall merge = (FunctionCall) expr("merge([for x in y : {a = x}]...)");
        assertThat(merge.args()).singleElement().isInstanceOf(ForExpr.class);
        assertThat(expr("f(x)[0]")).isInstanceOf(RelativeTraversal.class);
        assertThat(((Literal) expr("1.5e3")).value()).isEqualTo(new BigDecimal("1.5e3"));
        assertThat(((Literal) expr("true")).value()).isEqualTo(true);
    }

    @Test
    void forExpressionsAndObjects() {
        ForExpr f = (ForExpr) expr("""
                {
                  for k, v in var.regions : k => {
                    a = v.x
                    "b" : 2,
                    (local.c) = 3
                  } if k != "x"
                }""");
        assertThat(f.keyVar()).isEqualTo("k");
        assertThat(f.valueVar()).isEqualTo("v");
        assertThat(f.condition()).isInstanceOf(BinaryOp.class);
        ObjectCons o = (ObjectCons) f.valueExpr();
        assertThat(o.items()).hasSize(3);
        assertThat(o.items().get(0).constantKey()).hasValue("a");
        assertThat(o.items().get(1).constantKey()).hasValue("b");
        assertThat(o.items().get(2).constantKey()).isEmpty();
        // a parenthesised key is the expression it holds; a bare name there is a variable, not the key "c"
        assertThat(o.items().get(2).key()).isEqualTo(new Parens(
                new ScopeTraversal("local", List.of(new GetAttr("c")), new Ast.Pos(FILE, 5)), new Ast.Pos(FILE, 5)));
        ObjectCons keys = (ObjectCons) expr("{\n  (c) = 1\n  c = 2\n  (a[0].b) = 3\n}");
        assertThat(keys.items().get(0).key()).isEqualTo(new Parens(new ScopeTraversal("c", List.of(), new Ast.Pos(FILE, 2)),
                new Ast.Pos(FILE, 2)));
        assertThat(keys.items().get(1).constantKey()).hasValue("c");
        assertThat(((ScopeTraversal) ((Parens) keys.items().get(2).key()).inner()).steps()).hasSize(2);

        assertThat(((ForExpr) expr("{ for x in xs : x.k => x... }")).grouping()).isTrue();
        ForExpr list = (ForExpr) expr("[for i in range(3) : i * 2]");
        assertThat(list.keyExpr()).isNull();
        assertThat(list.keyVar()).isNull();
        assertThat(list.valueVar()).isEqualTo("i");
    }

    @Test
    void quotedTemplatesWithEscapesAndNestedInterpolation() {
        Template t = (Template) expr("\"a\\\"b\\n$${lit} %%{lit} ${f(\"x${y}\")}\\\\\"");
        assertThat(t.parts()).hasSize(3);
        assertThat(((LiteralText) t.parts().get(0)).text()).isEqualTo("a\"b\n${lit} %{lit} ");
        FunctionCall f = (FunctionCall) ((Interpolation) t.parts().get(1)).expr();
        assertThat(((Template) f.args().get(0)).parts()).hasSize(2);
        assertThat(((LiteralText) t.parts().get(2)).text()).isEqualTo("\\");
        assertThat(((Template) expr("\"${x}\"")).unwrapped()).isPresent();
    }

    @Test
    void heredocsAndTemplateFiles() {
        Body body = read("""
                description = <<-EOT
                  one ${var.x} \\n
                  EOT
                after = 1
                """);
        Template h = (Template) body.expr("description").orElseThrow();
        assertThat(h.parts()).hasSize(3);
        assertThat(((LiteralText) h.parts().get(2)).text()).isEqualTo(" \\n\n"); // no escapes in heredocs
        assertThat(body.attribute("after").orElseThrow().pos().line()).isEqualTo(4);

        // HCL's specsuite (expressions/heredoc.hcl): the text ends with its last line's break; <<- removes the
        // smallest indentation, blank lines not counted, a line opening with an interpolation counts as none
        assertThat(heredoc("<<EOT\n    Foo\n\n      Bar\n  EOT")).isEqualTo("    Foo\n\n      Bar\n");
        assertThat(heredoc("<<-EOT\n    Foo\n\n      Bar\n  EOT")).isEqualTo("Foo\n\n  Bar\n");
        assertThat(heredoc("<<-EOT\n    Foo\n  Bar\n    Baz\n  EOT")).isEqualTo("  Foo\nBar\n  Baz\n");
        assertThat(heredoc("<<-EOT\n\tFoo\n  Bar\n  EOT")).isEqualTo("Foo\n Bar\n");
        assertThat(heredoc("<<-EOT\n   \n    Foo\n  EOT")).isEqualTo("   \nFoo\n"); // a blank line keeps its spaces
        assertThat(heredoc("<<EOT\nEOT")).isEmpty();
        Template flushInterp = (Template) expr("<<-EOT\n    a\n  ${x} b\n  EOT\n");
        assertThat(((LiteralText) flushInterp.parts().get(0)).text()).isEqualTo("  a\n");
        assertThat(((LiteralText) flushInterp.parts().get(2)).text()).isEqualTo(" b\n");
        Template noIndent = (Template) expr("<<-EOT\n    a\n${x}\n  EOT\n");
        assertThat(((LiteralText) noIndent.parts().get(0)).text()).isEqualTo("    a\n");

        Template t = HclReader.readTemplate("""
                #!/bin/bash
                echo "$HOME $(date)" ${x} $${y}
                ${environment_file}
                done
                """, Path.of("t.tftpl"));
        assertThat(t.parts()).hasSize(5);
        assertThat(((Interpolation) t.parts().get(3)).expr()).isEqualTo(
                new ScopeTraversal("environment_file", List.of(), new Ast.Pos(Path.of("t.tftpl"), 3)));
        assertThat(((LiteralText) t.parts().get(2)).text()).isEqualTo(" ${y}\n");
        assertThat(((LiteralText) t.parts().get(4)).text()).isEqualTo("\ndone\n");
    }

    private static String heredoc(String heredoc) {
        return ((Template) expr(heredoc + "\n")).constant().orElseThrow();
    }

    @Test
    void refusesWhatRewriteHclDoesNotRead() {
        // template directives: rewrite-hcl has none, so a template using them is refused, never half-read
        assertThatThrownBy(() -> HclReader.readTemplate("%{ for k, v in m }${k}=${v}\n%{ endfor }\n", Path.of("t.tftpl")))
                .isInstanceOf(HclParseException.class);
        assertThatThrownBy(() -> read("a = \"%{ if x }y%{ endif }\"\n")).isInstanceOf(HclParseException.class);
        // \\u escapes: rewrite-hcl's lexer stops on them
        assertThatThrownBy(() -> read("a = \"\\u00e9\"\n")).isInstanceOf(HclParseException.class);
    }

    @Test
    void reportsMalformedInput() {
        for (String bad : List.of("a = {\n", "resource \"x\" {\n", "a = \"unterminated\n", "a = [1 2]\n",
                "a = <<EOT\nno end\n", "= 1\n")) {
            assertThatThrownBy(() -> read(bad)).as(bad).isInstanceOf(HclParseException.class);
        }
        // rewrite-hcl stops at the first item its grammar does not match and keeps the rest as white space
        assertThatThrownBy(() -> read("= 1\n")).hasMessage("test.tf:1: text that is not HCL");
        assertThatThrownBy(() -> read("a = 1\n\n# c\n= 2\nb = 3\n")).hasMessage("test.tf:4: text that is not HCL");
        assertThatThrownBy(() -> read("a = 1\n}\n")).hasMessage("test.tf:2: text that is not HCL");
    }
}
